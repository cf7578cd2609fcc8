import fc from 'fast-check';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { maskSecrets } from '../../src/text/mask-secrets';
import { runTool } from '../../src/toolCall/run-tool';
import { parseJsonArgs, readJsonArgs } from '../../src/toolCall/parse-json-args';
import type { ToolDefinition, ToolParseResult } from '../../src/toolCall/type';
import { argumentsArb, returnedArb, thrownArb } from '../helpers/arbitraries';
import { watchProcess } from '../helpers/host-process';

const call = (name: string, args: unknown): ChatCompletionMessageToolCall =>
  ({ id: 'call_p', type: 'function', function: { name, arguments: args } }) as ChatCompletionMessageToolCall;

const schema = (name: string): ToolDefinition['schema'] => ({
  type: 'function',
  function: { name, parameters: { type: 'object' } },
});

/** Arguments past a size, depth or key cap: without `parseParams`, runTool refuses them and the tool does not run. */
const pastCap = (args: unknown) => {
  if (typeof args !== 'string') return false;
  const read = readJsonArgs(args);
  return 'reason' in read && read.reason !== 'not_json';
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How the tool behaves when executed; data, so fast-check prints a readable counterexample. */
type Behaviour =
  | { kind: 'return'; value: unknown }
  | { kind: 'throw'; value: unknown }
  | { kind: 'syncThrow'; value: unknown }
  | { kind: 'reject'; value: unknown }
  | { kind: 'hang' }
  | { kind: 'lateReject'; value: unknown };

/** How its parseParams behaves; `default` means no parseParams (the built-in JSON parse). */
type ParseBehaviour =
  | { kind: 'default' }
  | { kind: 'ok' }
  | { kind: 'fail'; message: string }
  | { kind: 'throw'; value: unknown }
  | { kind: 'garbage'; value: unknown };

const TIMEOUT_MS = 5;

const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  returnedArb.map((value) => ({ kind: 'return' as const, value })),
  thrownArb.map((value) => ({ kind: 'throw' as const, value })),
  thrownArb.map((value) => ({ kind: 'syncThrow' as const, value })),
  thrownArb.map((value) => ({ kind: 'reject' as const, value })),
  fc.constant({ kind: 'hang' as const }),
  thrownArb.map((value) => ({ kind: 'lateReject' as const, value })),
);

const parseBehaviourArb: fc.Arbitrary<ParseBehaviour> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'default' as const }) },
  fc.constant({ kind: 'ok' as const }),
  fc.string().map((message) => ({ kind: 'fail' as const, message })),
  thrownArb.map((value) => ({ kind: 'throw' as const, value })),
  fc
    .constantFrom<unknown>(
      undefined,
      null,
      42,
      'success',
      {},
      { success: false },
      { success: 'yes', data: {} },
      { success: false, errorMessage: 42 },
      [],
    )
    .map((value) => ({ kind: 'garbage' as const, value })),
);

function buildTool(behaviour: Behaviour, parse: ParseBehaviour): ToolDefinition & { executed: () => number } {
  let executed = 0;
  const execute = (): Promise<never> => {
    executed++;
    switch (behaviour.kind) {
      case 'return':
        return Promise.resolve(behaviour.value as never);
      case 'throw':
        return (async () => {
          throw behaviour.value;
        })();
      case 'syncThrow':
        throw behaviour.value;
      case 'reject':
        return Promise.reject(behaviour.value);
      case 'hang':
        return new Promise<never>(() => undefined);
      case 'lateReject':
        // Ignores its signal and fails after runTool has already answered with the timeout: well after it, so a busy
        // moment of the machine cannot bring both timers due in the same turn of the event loop.
        return new Promise<never>((_resolve, reject) => setTimeout(() => reject(behaviour.value), TIMEOUT_MS * 20));
    }
  };
  const parseParams: ToolDefinition['parseParams'] | undefined =
    parse.kind === 'default'
      ? undefined
      : parse.kind === 'ok'
        ? (raw) => ({ success: true, data: parseJsonArgs(raw) })
        : parse.kind === 'fail'
          ? () => ({ success: false, errorMessage: parse.message })
          : parse.kind === 'throw'
            ? () => {
                throw parse.value;
              }
            : () => parse.value as ToolParseResult<unknown>;
  return {
    schema: schema('t'),
    execute: execute as ToolDefinition['execute'],
    timeoutMs: TIMEOUT_MS,
    ...(parseParams ? { parseParams } : {}),
    executed: () => executed,
  };
}

describe('runTool under arbitrary input and arbitrary tool behaviour (property-based)', () => {
  it('resolves with a string response for any arguments, and parses every valid JSON object exactly', async () => {
    await fc.assert(
      fc.asyncProperty(argumentsArb, async (args) => {
        let received: unknown = 'not executed';
        const tool: ToolDefinition = {
          schema: schema('echo'),
          execute: async ({ params }) => {
            received = params;
            return { response: 'ok' };
          },
        };
        const result = await runTool({ call: call('echo', args), messages: [], tools: [tool] });
        expect(typeof result.response).toBe('string');
        if (pastCap(args)) {
          expect(result.response).toMatch(/^Invalid arguments: /);
          expect(received).toBe('not executed');
          return;
        }
        expect(result.response).toBe('ok');
        // (Deep-equality on the 20 000-deep cases would overflow the comparison itself, not the code under test.)
        if (typeof args === 'string' && args.length < 5_000) {
          let exact: unknown;
          try {
            exact = JSON.parse(args);
          } catch {
            return;
          }
          const plainObject = exact !== null && typeof exact === 'object' && !Array.isArray(exact);
          if (plainObject && !/"(__proto__|constructor|prototype)"/.test(args)) expect(received).toEqual(exact);
        }
      }),
      { numRuns: 400 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never throws and always answers with a string, whatever parseParams and execute do', async () => {
    const watch = watchProcess();
    try {
      await fc.assert(
        fc.asyncProperty(argumentsArb, behaviourArb, parseBehaviourArb, async (args, behaviour, parse) => {
          const tool = buildTool(behaviour, parse);
          const result = await runTool({ call: call('t', args), messages: [], tools: [tool] });
          expect(typeof result.response).toBe('string');

          const parsedOk = (parse.kind === 'default' && !pastCap(args)) || parse.kind === 'ok';
          // A tool never runs unless its parser really succeeded.
          expect(tool.executed()).toBe(parsedOk ? 1 : 0);
          if (parse.kind === 'fail') expect(result.response).toBe(parse.message);
          if (parse.kind === 'throw' || parse.kind === 'garbage')
            expect(result.response).toMatch(/^(Tool error: |Invalid arguments)/);
          if (!parsedOk) return;

          if (behaviour.kind === 'hang' || behaviour.kind === 'lateReject') {
            expect(result.response).toBe(`Tool error: t timed out after ${TIMEOUT_MS} ms`);
          } else if (behaviour.kind === 'return') {
            const value = behaviour.value as { response?: unknown } | string;
            if (typeof value === 'string') expect(result.response).toBe(value);
            else if (typeof value?.response === 'string') expect(result.response).toBe(value.response);
          } else {
            // Thrown, rejected, or thrown before the first await: one short line, never a stack trace.
            expect(result.response).toMatch(/^Tool error: /);
            expect(result.response).not.toMatch(/\n|\s+at\s+\S+\s+\(.*:\d+:\d+\)/);
            expect(result.response.length).toBeLessThanOrEqual('Tool error: '.length + 500);
          }
        }),
        { numRuns: 300 },
      );
      // Let every late rejection of an abandoned tool settle before looking for unhandled ones.
      await sleep(TIMEOUT_MS * 4);
    } finally {
      await watch.stop();
    }
    expect(watch.unhandledRejections).toEqual([]);
  });

  it('answers a call to any name it does not have, without running anything', async () => {
    const tool = buildTool({ kind: 'return', value: 'ran' }, { kind: 'default' });
    await fc.assert(
      fc.asyncProperty(
        fc.string().filter((name) => name !== 't'),
        argumentsArb,
        async (name, args) => {
          const result = await runTool({ call: call(name, args), messages: [], tools: [tool] });
          expect(result.outcome).toBe('not_found');
          // A made-up name is model-controlled text: it is masked like any other (`a:b@host` reads as credentials).
          expect(result.response.startsWith('Call tool not found: ')).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    expect(tool.executed()).toBe(0);
  });

  it('names the missing tool as the model spelled it, when the name has the shape of a tool name', async () => {
    const tool = buildTool({ kind: 'return', value: 'ran' }, { kind: 'default' });
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/).filter((name) => name !== 't'),
        argumentsArb,
        async (name, args) => {
          // A name shaped like a key (`sk-…`, `AKIA…`) is masked even here; every other name reads as sent.
          fc.pre(maskSecrets(name) === name);
          const result = await runTool({ call: call(name, args), messages: [], tools: [tool] });
          // `T` differs from the one tool `t` by case only, so it is named as the closest.
          const closest = name.toLowerCase() === 't' ? ' (closest: t)' : '';
          expect(result.response).toBe(`Call tool not found: ${name}${closest}`);
        },
      ),
      { numRuns: 200 },
    );
    expect(tool.executed()).toBe(0);
  });
});
