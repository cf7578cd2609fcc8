import fc from 'fast-check';
import { InvalidRunStateError } from '../../src';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import {
  startScriptedServer,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptedServer,
  type ScriptedToolCall,
} from '../../src/testing';
import type { ToolDefinition } from '../../src/toolCall/type';
import { assertValidRequests } from '../helpers/history';
import { user } from '../helpers/tools';

const SEED = 0x70015e;

const WORDS = ['weather', 'email', 'invoice', 'calendar', 'report', 'user', 'search', 'file', 'billing', 'map'];

type ToolSpec = { name: string; description: string; deferred: boolean };
type CallSpec = { kind: 'search'; query: string } | { kind: 'tool'; index: number } | { kind: 'unknown' };

const nameArb = fc
  .tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS), fc.constantFrom('_', '-', 'camel'))
  .map(([a, b, join]) => (join === 'camel' ? `${a}${b[0].toUpperCase()}${b.slice(1)}` : `${a}${join}${b}`));

const toolSetArb = fc
  .array(
    fc.record({
      name: nameArb,
      description: fc.array(fc.constantFrom(...WORDS, 'the', 'a', 'of'), { maxLength: 6 }).map((w) => w.join(' ')),
      deferred: fc.boolean(),
    }),
    { minLength: 1, maxLength: 14 },
  )
  // Names made unique by position: a duplicate set is refused before any request, tested elsewhere.
  .map((specs): ToolSpec[] => specs.map((spec, i) => ({ ...spec, name: `${spec.name}${i}` })));

const queryArb = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }).map((w) => w.join(' ')),
  fc.constantFrom('', '   ', '?!', 'wether', 'invo', 'WEATHER-report'),
  fc.string({ maxLength: 40 }),
);

const callArb: fc.Arbitrary<CallSpec> = fc.oneof(
  { weight: 3, arbitrary: queryArb.map((query): CallSpec => ({ kind: 'search', query })) },
  { weight: 3, arbitrary: fc.nat(13).map((index): CallSpec => ({ kind: 'tool', index })) },
  { weight: 1, arbitrary: fc.constant<CallSpec>({ kind: 'unknown' }) },
);

const turnsArb = fc.array(fc.array(callArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });

const names = (request: RecordedRequest): string[] =>
  (request.body.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : tool.type));

/** The names a `search_tools` answer lists: what the model was told it can call from now on. */
const listed = (answer: string): string[] =>
  answer.startsWith('Found ') ? [...answer.matchAll(/^- ([\w-]+)/gm)].map((match) => match[1]) : [];

/** A tool that answers with its name: deferred or not. */
const toolOf = (name: string, description: string, deferred: boolean): ToolDefinition => ({
  schema: { type: 'function', function: { name, description, parameters: { type: 'object' } } },
  execute: async () => ({ response: `${name} ran` }),
  ...(deferred && { deferred: true }),
});

/** Run the loop over `tools` against these turns of calls, then an answer: the run must complete. */
async function runScripted(server: ScriptedServer, tools: ToolDefinition[], turns: ScriptedReply[]) {
  const session = server.session([...turns, { text: 'done' }]);
  const result = await runAgentLoop({
    client: session.client(),
    body: { model: 'm', messages: [user('go')] },
    tools,
    maxConsecutiveToolTurns: 0,
  });
  expect(result.stopReason).toBe('completed');
  return { session, result };
}

describe('tool search (property)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('sends the tools not deferred, search_tools and those found so far, and answers every call once', async () => {
    await fc.assert(
      fc.asyncProperty(toolSetArb, turnsArb, async (specs, turns) => {
        const tools = specs.map((spec) => toolOf(spec.name, spec.description, spec.deferred));
        let id = 0;
        const scripted = turns.map((calls) => ({
          toolCalls: calls.map((call): ScriptedToolCall => ({
            id: `c${id++}`,
            name:
              call.kind === 'search'
                ? 'search_tools'
                : call.kind === 'tool'
                  ? specs[call.index % specs.length].name
                  : 'no_such_tool',
            arguments: call.kind === 'search' ? { query: call.query } : {},
          })),
        }));
        const { session, result } = await runScripted(server, tools, scripted);
        assertValidRequests(session.requests);

        const anyDeferred = specs.some((spec) => spec.deferred);
        const deferred = new Set(specs.filter((spec) => spec.deferred).map((spec) => spec.name));
        const always = specs.filter((spec) => !spec.deferred).map((spec) => spec.name);
        const answers = answersById(result.completeMessages);
        const found: string[] = [];
        session.requests.forEach((request, turn) => {
          expect(names(request)).toEqual(anyDeferred ? [...always, 'search_tools', ...found] : always);
          for (const call of scripted[turn]?.toolCalls ?? []) {
            const hits = call.name === 'search_tools' ? listed(answers.get(call.id!)![0]) : [call.name];
            for (const name of hits) if (deferred.has(name) && !found.includes(name)) found.push(name);
          }
        });
        // Every call answered exactly once.
        for (const call of scripted.flatMap((turn) => turn.toolCalls)) expect(answers.get(call.id!)).toHaveLength(1);
        expect(result.state.foundTools ?? []).toEqual(found);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('never sends more than 128 tools: those found longest ago make room, and one found again comes back', async () => {
    // Many deferred tools, called by name (a search finds the same way): far more than fit in one request.
    const setArb = fc.record({ always: fc.nat(10), deferred: fc.integer({ min: 130, max: 220 }) });
    // Sized to the maximum: fast-check's default size would keep the turns short of the limit.
    const callsArb = fc.array(fc.array(fc.nat(219), { minLength: 1, maxLength: 64, size: 'max' }), {
      minLength: 1,
      maxLength: 8,
      size: 'max',
    });
    await fc.assert(
      fc.asyncProperty(setArb, callsArb, async (set, turns) => {
        const always = Array.from({ length: set.always }, (_, i) => `always_${i}`);
        const tools = [
          ...always.map((name) => toolOf(name, name, false)),
          ...Array.from({ length: set.deferred }, (_, i) => toolOf(`deferred_${i}`, `deferred ${i}`, true)),
        ];
        let id = 0;
        const scripted = turns.map((calls) => ({
          toolCalls: calls.map((index): ScriptedToolCall => ({
            id: `c${id++}`,
            name: `deferred_${index % set.deferred}`,
            arguments: {},
          })),
        }));
        const { session, result } = await runScripted(server, tools, scripted);

        // The model of it: found in order; a request sends the last that fit; one found again that did not fit
        // goes to the end.
        const room = 128 - always.length - 1;
        const found: string[] = [];
        const sent = () => found.slice(-room);
        session.requests.forEach((request, turn) => {
          expect(names(request).length).toBeLessThanOrEqual(128);
          expect(names(request)).toEqual([...always, 'search_tools', ...sent()]);
          for (const call of scripted[turn]?.toolCalls ?? []) {
            if (!found.includes(call.name)) found.push(call.name);
            else if (!sent().includes(call.name)) found.push(...found.splice(found.indexOf(call.name), 1));
          }
        });
        expect(result.state.foundTools).toEqual(found);
      }),
      // Shrinking runs of hundreds of calls would outlast the test's timeout: a failure is reported as found.
      { seed: SEED, numRuns: 25, endOnFailure: true },
    );
  });

  it('refuses, before any request, a resumed state whose foundTools is any JSON but a list of valid names', async () => {
    const tools: ToolDefinition[] = ['echo', 'late'].map((name) => ({
      schema: { type: 'function', function: { name, parameters: { type: 'object' } } },
      execute: async () => ({ response: name }),
      ...(name === 'late' && { deferred: true }),
    }));
    const valid = (value: unknown) =>
      Array.isArray(value) &&
      value.every((name) => typeof name === 'string' && /^[a-zA-Z0-9_-]{1,64}$/.test(name)) &&
      new Set(value).size === value.length;
    const someName = fc.constantFrom('late', 'echo', 'other_tool', 'x-1');
    const foundArb = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      { weight: 2, arbitrary: fc.uniqueArray(someName, { maxLength: 4 }) },
      fc.array(fc.oneof(someName, fc.constantFrom('a b', ''), fc.string({ maxLength: 70 })), { maxLength: 4 }),
    );
    await fc.assert(
      fc.asyncProperty(foundArb, async (foundTools) => {
        const session = server.session([{ text: 'done' }]);
        const state = {
          ...{ v: 1, runId: 'r', messages: [user('go')], turn: 0, pending: [] },
          foundTools,
        } as unknown as RunState;
        const result = await runAgentLoop({
          client: session.client(),
          body: { model: 'm', messages: [] },
          tools,
          resumeFrom: JSON.parse(JSON.stringify(state)) as RunState,
        });
        if (!valid(foundTools)) {
          expect(InvalidRunStateError.isInstance(result.error)).toBe(true);
          expect(session.requests).toHaveLength(0);
          return;
        }
        expect(result.stopReason).toBe('completed');
        const late = (foundTools as string[]).includes('late') ? ['late'] : [];
        expect(names(session.requests[0])).toEqual(['echo', 'search_tools', ...late]);
        expect(result.state.foundTools ?? []).toEqual(foundTools);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});

function answersById(messages: ChatCompletionMessageParam[]): Map<string, string[]> {
  const answers = new Map<string, string[]>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const list = answers.get(message.tool_call_id) ?? [];
    list.push(String(message.content));
    answers.set(message.tool_call_id, list);
  }
  return answers;
}
