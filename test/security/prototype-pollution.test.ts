import 'reflect-metadata';
import { ArrayMaxSize, IsBoolean, Length } from 'class-validator';
import fc from 'fast-check';
import { runAgentLoop } from '../../src/run-agent-loop';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { startScriptedServer } from '../../src/testing';
import { runTool } from '../../src/toolCall/run-tool';
import type { ToolDefinition } from '../../src/toolCall/type';
import { fakeTool, user } from '../helpers/tools';

const FORBIDDEN = ['__proto__', 'constructor', 'prototype'] as const;

/** A JSON tree whose object keys are sometimes the keys that reach a prototype. */
type Node = { obj: [string, Node][] } | { arr: Node[] } | { leaf: string | number | boolean | null };

const keyArb = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 6 }) }, fc.constantFrom(...FORBIDDEN));
const { node: nodeArb } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)).map((leaf) => ({ leaf })),
    fc.array(fc.tuple(keyArb, tie('node')), { maxLength: 4 }).map((obj) => ({ obj })),
    fc.array(tie('node'), { maxLength: 3 }).map((arr) => ({ arr })),
  ),
}));
/** A polluting payload hung somewhere in an object. */
const payload: Node = {
  obj: [
    ['polluted', { leaf: true }],
    ['isAdmin', { leaf: true }],
  ],
};

/** JSON text, or JSON5 text with unquoted keys where a key is an identifier. */
function serialize(node: Node, json5: boolean): string {
  if ('leaf' in node) return JSON.stringify(node.leaf);
  if ('arr' in node) return `[${node.arr.map((item) => serialize(item, json5)).join(',')}]`;
  const key = (k: string) => (json5 && /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
  return `{${node.obj.map(([k, v]) => `${key(k)}:${serialize(v, json5)}`).join(',')}}`;
}

/** Throw if any object in `value` has a prototype other than the expected one, or an own forbidden key. */
function assertClean(value: unknown, expectedProto: (value: object, path: string) => object | null, path = '$'): void {
  if (value === null || typeof value !== 'object') return;
  const proto = Object.getPrototypeOf(value);
  const expected = expectedProto(value, path);
  // A DTO instance may come from agentcall's private validation subclass, which declares nothing of its own.
  const viaValidationClass =
    expected !== Object.prototype &&
    expected !== Array.prototype &&
    proto !== null &&
    Object.getPrototypeOf(proto) === expected &&
    Reflect.ownKeys(proto).join() === 'constructor';
  if (proto !== expected && !viaValidationClass)
    throw new Error(`${path}: unexpected prototype ${proto?.constructor?.name}`);
  for (const key of Reflect.ownKeys(value)) {
    if (FORBIDDEN.includes(key as never)) throw new Error(`${path}: own key ${String(key)}`);
    assertClean((value as Record<string | symbol, unknown>)[key], expectedProto, `${path}.${String(key)}`);
  }
}

const plainProto = (value: object) => (Array.isArray(value) ? Array.prototype : Object.prototype);
const call = (name: string, args: string): ChatCompletionMessageToolCall => ({
  id: 'c1',
  type: 'function',
  function: { name, arguments: args },
});

class Address {
  @Param({ description: 'Street' }) street!: string;
  @Param({ optional: true }) zip?: string;
}

class Account {
  @Param({ description: 'Owner' }) owner!: string;
  @Param({ type: () => Address }) address!: Address;
  @Param({ type: () => [Address], optional: true }) previous?: Address[];
}

class AccountTools {
  received: unknown[] = [];

  @Tool({ description: 'Open an account' })
  open(@Param() account: Account) {
    this.received.push(account);
    return 'opened';
  }

  @Tool({ description: 'Greet someone' })
  greet(
    @Param('name', {}, Length(1, 40)) name: string,
    @Param('loud', { optional: true }, IsBoolean()) loud?: boolean,
    @Param('tags', { optional: true, type: () => [String] }, ArrayMaxSize(5)) tags?: string[],
  ) {
    this.received.push({ name, loud, tags });
    return `hi ${name}`;
  }
}

describe('prototype pollution through tool arguments', () => {
  const protoKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  afterEach(() => {
    // Whatever the test fed in, the realm's Object.prototype is exactly as it was.
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoKeysBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it.each([
    ['__proto__', '{"a":1,"__proto__":{"polluted":true,"isAdmin":true}}'],
    ['constructor.prototype', '{"a":1,"constructor":{"prototype":{"polluted":true}}}'],
    ['JSON5 unquoted __proto__', '{a: 1, __proto__: {polluted: true}}'],
    ['escaped \\u005f_proto__', '{"a":1,"\\u005f_proto__":{"polluted":true}}'],
    ['inside an array', '{"a":1,"list":[{"__proto__":{"polluted":true}}]}'],
    ['wrapped in prose', 'Sure! {"a":1,"__proto__":{"polluted":true}} hope that helps'],
  ])('a hand-written tool gets a clean plain object: %s', async (_name, args) => {
    let params: unknown;
    const tool = fakeTool('t', (ctx) => {
      params = ctx.params;
      return { response: 'ok' };
    });
    await runTool({ call: call('t', args), messages: [], tools: [tool] });
    expect(params).toMatchObject({ a: 1 });
    assertClean(params, plainProto);
    expect((params as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never pollutes, whatever tree of __proto__/constructor/prototype keys the model sends (default parser)', async () => {
    let params: unknown;
    const tool: ToolDefinition = {
      schema: { type: 'function', function: { name: 't', parameters: { type: 'object' } } },
      execute: async (ctx) => {
        params = ctx.params;
        return { response: 'ok' };
      },
    };
    await fc.assert(
      fc.asyncProperty(nodeArb, fc.boolean(), fc.constantFrom(...FORBIDDEN), async (tree, json5, key) => {
        // Always hang one payload directly under a forbidden key at the top, on top of whatever the tree has.
        const root: Node = {
          obj: [
            [key, key === 'constructor' ? { obj: [['prototype', payload]] } : payload],
            ['tree', tree],
          ],
        };
        params = undefined;
        await runTool({ call: call('t', serialize(root, json5)), messages: [], tools: [tool] });
        expect(params).toBeDefined();
        assertClean(params, plainProto);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('never pollutes a DTO, its nested DTOs or their prototypes, and still validates the rest', async () => {
    const instance = new AccountTools();
    const [open] = toolsFrom(instance);
    const protoKeys = [Account, Address].map((type) => Object.getOwnPropertyNames(type.prototype).sort());
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FORBIDDEN),
        fc.constantFrom('root', 'address', 'previous'),
        fc.boolean(),
        async (key, where, json5) => {
          const evil: [string, Node] = [key, key === 'constructor' ? { obj: [['prototype', payload]] } : payload];
          const address = (extra: [string, Node][]): Node => ({ obj: [['street', { leaf: 'Main St' }], ...extra] });
          const root: Node = {
            obj: [
              ['owner', { leaf: 'ada' }],
              ['address', address(where === 'address' ? [evil] : [])],
              ['previous', { arr: [address([]), address(where === 'previous' ? [evil] : [])] }],
              ...(where === 'root' ? [evil] : []),
            ],
          };
          instance.received.length = 0;
          const result = await runTool({ call: call('open', serialize(root, json5)), messages: [], tools: [open] });
          expect(result.response).toBe('opened');
          const [account] = instance.received as Account[];
          expect(account).toBeInstanceOf(Account);
          assertClean(account, (value, path) =>
            path === '$' ? Account.prototype : Array.isArray(value) ? Array.prototype : Address.prototype,
          );
          expect((account as unknown as Record<string, unknown>).isAdmin).toBeUndefined();
          expect((account.address as unknown as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: 60 },
    );
    expect([Account, Address].map((type) => Object.getOwnPropertyNames(type.prototype).sort())).toEqual(protoKeys);
  });

  it('keeps a polluting call from a model in a real run away from the tool, the DTO and Object.prototype', async () => {
    const server = await startScriptedServer({
      turns: [
        {
          toolCalls: [
            {
              id: 'p1',
              name: 'greet',
              arguments: '{"name":"ada","__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
            },
          ],
        },
        { text: 'done' },
      ],
    });
    try {
      const instance = new AccountTools();
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('hi')] },
        tools: toolsFrom(instance),
      });
      expect(result.stopReason).toBe('completed');
      expect(instance.received).toEqual([{ name: 'ada', loud: undefined, tags: undefined }]);
      expect(server.requests[1].body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'p1', content: 'hi ada' });
    } finally {
      await server.close();
    }
  });
});

describe('unknown properties', () => {
  const instance = new AccountTools();
  const tools = toolsFrom(instance);
  const [open, greet] = tools;

  it.each([
    ['at the top level', greet, '{"name":"ada","role":"admin"}', ['role: property role should not exist']],
    [
      'in a nested DTO',
      open,
      '{"owner":"ada","address":{"street":"s","admin":true}}',
      ['address.admin: property admin should not exist'],
    ],
    [
      'in an array of DTOs',
      open,
      '{"owner":"ada","address":{"street":"s"},"previous":[{"street":"t","x":1}]}',
      ['previous[0].x: property x should not exist'],
    ],
  ])('are refused %s, each named, and the tool never runs', async (_where, tool, args, lines) => {
    instance.received.length = 0;
    const { response } = await runTool({ call: call(tool.schema.function.name, args), messages: [], tools });
    expect(response.split('\n')).toEqual([`Invalid arguments for tool "${tool.schema.function.name}":`, ...lines]);
    expect(instance.received).toEqual([]);
  });
});
