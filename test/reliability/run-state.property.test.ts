import fc from 'fast-check';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { Decision, PendingCall, RunState } from '../../src/agentCall/state/run-state';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import type { ToolDefinition, ToolExecuteContext, ToolExecuteResult } from '../../src/toolCall/type';
import { assertValidRequests } from '../helpers/history';
import { user } from '../helpers/tools';
import { stretchedTimeout } from '../helpers/stretched-timeout';

type Kind = 'plain' | 'guarded' | 'ask' | 'fail';
type Choice = 'approve' | 'reject' | 'reason' | 'later';

const SEED = 0x5eed11;
const MAX_TURNS = 50;

/** A tool of each kind, counting executions per call id. */
function makeTools(executed: Map<string, number>): ToolDefinition[] {
  const tool = (
    name: Kind,
    run: (ctx: ToolExecuteContext) => ToolExecuteResult,
    extra: Partial<ToolDefinition> = {},
  ): ToolDefinition => ({
    schema: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
    execute: async (ctx) => {
      executed.set(ctx.call.id, (executed.get(ctx.call.id) ?? 0) + 1);
      return run(ctx);
    },
    ...extra,
  });
  return [
    tool('plain', ({ call }) => ({ response: `plain ${call.id}` })),
    tool('guarded', ({ call }) => ({ response: `guarded ${call.id}` }), { needsApproval: true }),
    tool('ask', ({ call }) => ({ response: 'waiting', interactive: { type: 'question', id: call.id } })),
    tool('fail', () => {
      throw new Error('broken tool');
    }),
  ];
}

/** Every assistant message's tool calls are answered right after it, in call order. */
function assertCallOrder(messages: ChatCompletionMessageParam[]): void {
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !message.tool_calls?.length) return;
    const answered = messages
      .slice(index + 1, index + 1 + message.tool_calls.length)
      .map((m) => (m.role === 'tool' ? m.tool_call_id : `(${m.role})`));
    expect(answered).toEqual(message.tool_calls.map((c) => c.id));
  });
}

function decide(pending: PendingCall, choice: Choice): Decision | undefined {
  if (choice === 'later') return undefined;
  if (pending.kind === 'interactive') {
    return choice === 'approve' ? { answer: { response: `answer ${pending.call.id}` } } : { approve: false };
  }
  if (choice === 'approve') return { approve: true };
  return choice === 'reason' ? { approve: false, reason: `no ${pending.call.id}` } : { approve: false };
}

const scenarioArb = fc.record({
  turns: fc.array(fc.array(fc.constantFrom<Kind>('plain', 'guarded', 'ask', 'fail'), { minLength: 1, maxLength: 6 }), {
    minLength: 1,
    maxLength: 4,
  }),
  choices: fc.infiniteStream(fc.constantFrom<Choice>('approve', 'approve', 'reject', 'reason', 'later')),
  roundTrips: fc.infiniteStream(fc.boolean()),
  usage: fc.infiniteStream(fc.record({ prompt_tokens: fc.nat(900), completion_tokens: fc.nat(90) })),
});

describe('run state, approvals and decisions (property-based)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it(
    'keeps every history valid, runs approved calls exactly once and nothing undecided, and adds up across resumes',
    async () => {
      let scenarioIndex = 0;
      await fc.assert(
        fc.asyncProperty(scenarioArb, async ({ turns, choices, roundTrips, usage }) => {
          const prefix = `s${scenarioIndex++}`;
          const replies: ScriptedReply[] = turns.map((kinds, t) => ({
            toolCalls: kinds.map((name, i) => ({ id: `${prefix}_t${t}_${i}_${name}`, name })),
            usage: usage.next().value,
          }));
          replies.push({ text: 'all done', usage: usage.next().value });
          const session = server.session(replies);
          const executed = new Map<string, number>();
          const tools = makeTools(executed);
          const approved = new Set<string>();
          const rejected = new Set<string>();

          let state: RunState | undefined;
          let decisions: Record<string, Decision> | undefined;
          let inputTokens = 0;
          let outputTokens = 0;
          let runTimes = 0;
          for (let resumes = 0; ; resumes++) {
            expect(resumes).toBeLessThan(100);
            const before = new Map(executed);
            const requestsBefore = session.requests.length;
            const waitingOn = state?.pending ?? [];
            const result = await runAgentLoop({
              client: session.client(),
              body: { model: 'm', messages: [user('go')] },
              tools,
              maxRunAgentTimes: MAX_TURNS,
              ...(state
                ? { resumeFrom: roundTrips.next().value ? (JSON.parse(JSON.stringify(state)) as RunState) : state }
                : {}),
              ...(decisions ? { decisions } : {}),
            });
            inputTokens += result.inputTokens;
            outputTokens += result.outputTokens;
            runTimes += result.runTimes;

            const undecided = waitingOn.filter((p) => !decisions?.[p.call.id]);
            if (undecided.length) {
              // Waiting on a person: nothing was requested, nothing ran, the same calls still wait.
              expect(result.stopReason).toBe('interactive');
              expect(session.requests.length).toBe(requestsBefore);
              expect(executed).toEqual(before);
              expect(JSON.parse(JSON.stringify(result.state.pending))).toEqual(JSON.parse(JSON.stringify(waitingOn)));
            }
            for (const [id, count] of executed) {
              const wasRun = before.get(id) ?? 0;
              if (count === wasRun) continue;
              expect(count).toBe(1);
              if (id.endsWith('_guarded')) expect(approved.has(id)).toBe(true);
            }
            state = result.state;
            if (result.stopReason !== 'interactive') {
              expect(result.stopReason).toBe('completed');
              break;
            }
            expect(state.pending.length).toBeGreaterThan(0);
            // A person's earlier decisions stand; only the calls still undecided get a new choice.
            const earlier: Record<string, Decision> = decisions ?? {};
            decisions = {};
            for (const pending of state.pending) {
              if (earlier[pending.call.id]) {
                decisions[pending.call.id] = earlier[pending.call.id];
                continue;
              }
              const decision = decide(pending, choices.next().value);
              if (!decision) continue;
              decisions[pending.call.id] = decision;
              if ('approve' in decision && decision.approve) approved.add(pending.call.id);
              if ('approve' in decision && !decision.approve) rejected.add(pending.call.id);
            }
          }

          assertValidRequests(session.requests);
          for (const request of session.requests) assertCallOrder(request.body.messages);
          for (const id of approved) expect([id, executed.get(id)]).toEqual([id, 1]);
          for (const id of rejected) if (id.endsWith('_guarded')) expect(executed.get(id)).toBeUndefined();
          for (const [id, count] of executed)
            if (id.endsWith('_guarded')) expect([id, count, approved.has(id)]).toEqual([id, 1, true]);
          const last = session.requests.at(-1)!.body.messages;
          for (const id of rejected) {
            const message = last.find((m) => m.role === 'tool' && m.tool_call_id === id);
            expect(message?.content).toMatch(/^Tool call rejected by the user(: no .+)?$/);
          }
          expect(state.turn).toBe(turns.length + 1);
          expect(runTimes).toBe(state.turn);
          expect(session.requests).toHaveLength(state.turn);
          expect(state.usage).toEqual({ inputTokens, outputTokens });
          const sent = replies.reduce(
            (sum, reply) => ({
              inputTokens: sum.inputTokens + reply.usage!.prompt_tokens,
              outputTokens: sum.outputTokens + reply.usage!.completion_tokens,
            }),
            { inputTokens: 0, outputTokens: 0 },
          );
          expect(state.usage).toEqual(sent);
          expect(state.pending).toEqual([]);
        }),
        { seed: SEED, numRuns: 40 },
      );
      // Forty runs of several HTTP turns each: generous for a loaded machine, never a measure of speed.
    },
    stretchedTimeout(300_000),
  );
});
