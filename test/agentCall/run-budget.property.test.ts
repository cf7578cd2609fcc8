import fc from 'fast-check';
import { runAgentLoop, type AfterToolCallEvent, type RunAgentResponse, type RunBudget } from '../../src';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidHistory, assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const PRICE = { input: 1, output: 5, cachedInput: 0.25 };

type Turn = { calls: number; prompt: number; cached: number; completion: number };

const turnArb: fc.Arbitrary<Turn> = fc
  .record({ calls: fc.nat(4), prompt: fc.nat(200), completion: fc.nat(50), cachedShare: fc.nat(100) })
  .map(({ calls, prompt, completion, cachedShare }) => ({
    calls,
    prompt,
    completion,
    cached: Math.floor((prompt * cachedShare) / 100),
  }));

const budgetArb: fc.Arbitrary<RunBudget> = fc.record(
  {
    inputTokens: fc.nat(800),
    outputTokens: fc.nat(200),
    totalTokens: fc.nat(1000),
    toolCalls: fc.nat(10),
    costUsd: fc.double({ min: 0, max: 0.001, noNaN: true }),
  },
  { requiredKeys: [] },
);

const scenarioArb = fc.record({
  turns: fc.array(turnArb, { minLength: 1, maxLength: 6 }),
  budget: budgetArb,
  concurrency: fc.integer({ min: 1, max: 3 }),
  /** Stop the first run after this many requests (`maxRunAgentTimes`) and resume it through JSON. */
  splitAt: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
});

/** What the budget must do with `turns`, worked out on its own: requests made, tools run, how the run ends. */
function expected(turns: Turn[], budget: RunBudget) {
  let input = 0;
  let output = 0;
  let cost = 0;
  let ran = 0;
  let requests = 0;
  const reached = (spent: number, limit: number | undefined) => limit !== undefined && spent >= limit;
  const exhausted = () =>
    reached(input, budget.inputTokens) ||
    reached(output, budget.outputTokens) ||
    reached(input + output, budget.totalTokens) ||
    reached(cost, budget.costUsd);
  for (const turn of turns) {
    // A budget reached before a request (a limit of 0 included) makes none.
    if (exhausted()) return { stopReason: 'budget', requests, ran };
    requests++;
    input += turn.prompt;
    output += turn.completion;
    cost +=
      ((turn.prompt - turn.cached) * PRICE.input + turn.cached * PRICE.cachedInput + turn.completion * PRICE.output) /
      1e6;
    if (turn.calls === 0) return { stopReason: 'completed', requests, ran };
    if (exhausted()) return { stopReason: 'budget', requests, ran };
    let refused = false;
    for (let i = 0; i < turn.calls; i++) {
      if (budget.toolCalls !== undefined && ran >= budget.toolCalls) refused = true;
      else ran++;
    }
    if (refused) return { stopReason: 'budget', requests, ran };
  }
  throw new Error('the script ends with an answer');
}

describe('run budgets (property-based)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('answers every call once in order, runs at most toolCalls tools, makes no request once spent, and stops on budget exactly when one was hit', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ turns, budget, concurrency, splitAt }) => {
        const script = [...turns, { calls: 0, prompt: 10, cached: 0, completion: 3 }];
        const session = server.session(
          script.map((turn): ScriptedReply => ({
            ...(turn.calls
              ? { toolCalls: Array.from({ length: turn.calls }, (_, i) => ({ name: 'look', arguments: { i } })) }
              : { text: 'done' }),
            usage: { prompt_tokens: turn.prompt, completion_tokens: turn.completion, cached_tokens: turn.cached },
          })),
        );
        const look = fakeTool('look', async () => {
          await new Promise((resolve) => setImmediate(resolve));
          return { response: 'seen' };
        });
        const ended: AfterToolCallEvent[] = [];
        const run = (more: { maxRunAgentTimes: number; resumeFrom?: RunAgentResponse['state'] }) =>
          runAgentLoop({
            client: session.client(),
            body: { model: 'm', messages: [user('go')] },
            tools: [look],
            budget,
            prices: { m: PRICE },
            toolConcurrency: concurrency,
            maxConsecutiveToolTurns: 0,
            onAfterToolCall: (e) => ended.push(e),
            ...more,
          });
        let result = await run({ maxRunAgentTimes: splitAt ?? 100 });
        if (result.stopReason === 'max_turns') {
          result = await run({ maxRunAgentTimes: 100, resumeFrom: JSON.parse(JSON.stringify(result.state)) });
        }
        const want = expected(script, budget);

        expect(result.error).toBeUndefined();
        expect(result.stopReason).toBe(want.stopReason);
        expect(session.requests).toHaveLength(want.requests);
        expect(look.calls).toHaveLength(want.ran);
        if (budget.toolCalls !== undefined) expect(look.calls.length).toBeLessThanOrEqual(budget.toolCalls);
        expect(result.state.spent!.toolCalls).toBe(want.ran);

        const messages = result.completeMessages;
        assertValidHistory(messages);
        if (want.requests) assertValidRequests(session.requests);
        const made = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
        const answered = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
        expect(answered).toEqual(made);
        expect(ended.map((e) => e.call.id).sort()).toEqual([...made].sort());
        expect(ended.filter((e) => e.outcome === 'ok')).toHaveLength(want.ran);
      }),
      { numRuns: 150 },
    );
  });
});
