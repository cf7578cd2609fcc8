import {
  InvalidBudgetError,
  InvalidRunStateError,
  MissingPriceError,
  runAgentLoop,
  type AfterToolCallEvent,
  type RunAgentCallProps,
  type RunState,
} from '../../src';
import { BudgetMeter } from '../../src/agentCall/budget/run-budget';
import { newDurableState } from '../../src/agentCall/state/run-state-snapshot';
import { startScriptedServer, type ScriptedReply, type ScriptedServer, type ScriptedUsage } from '../../src/testing';
import { assertValidHistory, assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const SPENT_TEXT = /^Tool error: look was not run because the run's budget is spent$/;

/** A reply that calls `look` `calls` times, with fixed usage so a test can predict when a budget is reached. */
const lookTurn = (calls = 1, usage: ScriptedUsage = { prompt_tokens: 100, completion_tokens: 10 }): ScriptedReply => ({
  toolCalls: Array.from({ length: calls }, (_, i) => ({ name: 'look', arguments: { i } })),
  usage,
});

/** A model that calls a tool forever: far more turns than any budget here lets through. */
const forever = (calls = 1, usage?: ScriptedUsage) => Array.from({ length: 40 }, () => lookTurn(calls, usage));

describe('runAgentLoop budget', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const setup = (props: Partial<RunAgentCallProps> = {}) => {
    const look = fakeTool('look', () => ({ response: 'seen' }));
    const ended: AfterToolCallEvent[] = [];
    const checkpoints: RunState[] = [];
    const run = (more: Partial<RunAgentCallProps> = {}) =>
      runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [look],
        maxRunAgentTimes: 100,
        onAfterToolCall: (e) => ended.push(e),
        onCheckpoint: (state) => {
          checkpoints.push(roundTrip(state));
        },
        ...props,
        ...more,
      });
    return { look, ended, checkpoints, run };
  };

  /** Every call the model made has exactly one tool message, in call order. */
  const answeredInOrder = (messages: RunState['messages']) => {
    assertValidHistory(messages);
    const made = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
    const answered = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    expect(answered).toEqual(made);
  };

  it('ends a model that calls a tool forever: the last call is answered without running, everything is kept', async () => {
    server.enqueue(...forever());
    const t = setup({ budget: { toolCalls: 3 } });
    const result = await t.run();
    expect(result.stopReason).toBe('budget');
    expect(result.error).toBeUndefined();
    expect(t.look.calls).toHaveLength(3);
    expect(server.requests).toHaveLength(4);
    answeredInOrder(result.completeMessages);
    assertValidRequests(server.requests);
    const last = result.completeMessages.at(-1)!;
    expect(last.role).toBe('tool');
    expect(last.content).toMatch(SPENT_TEXT);
    expect(t.ended.map((e) => e.outcome)).toEqual(['ok', 'ok', 'ok', 'skipped']);
    expect(t.ended[3]).toMatchObject({ response: expect.stringMatching(SPENT_TEXT), durationMs: 0 });
    expect(result.state.spent).toEqual({ toolCalls: 3, costUsd: 0 });
    expect(t.checkpoints.at(-1)).toEqual(roundTrip(result.state));
  });

  it.each([
    ['inputTokens', { inputTokens: 250 }, 3],
    ['outputTokens', { outputTokens: 20 }, 2],
    ['totalTokens', { totalTokens: 330 }, 3],
    ['costUsd', { costUsd: 0.0004 }, 2],
  ] as const)(
    '%s alone: no request once it is reached, its calls answered without running',
    async (_key, budget, requests) => {
      server.enqueue(...forever());
      // 100 input and 10 output tokens a request: $0.0002 at $1 and $10 per million.
      const t = setup({ budget, prices: { m: { input: 1, output: 10 } } });
      const result = await t.run();
      expect(result.stopReason).toBe('budget');
      expect(server.requests).toHaveLength(requests);
      expect(t.look.calls).toHaveLength(requests - 1);
      answeredInOrder(result.completeMessages);
      expect(result.completeMessages.at(-1)!.content).toMatch(SPENT_TEXT);
      expect(result.state.usage).toEqual({ inputTokens: 100 * requests, outputTokens: 10 * requests });
      expect(result.state.spent!.toolCalls).toBe(requests - 1);
      if ('costUsd' in budget) expect(result.state.spent!.costUsd).toBeCloseTo(0.0002 * requests, 12);
    },
  );

  it('toolCalls alone: n calls run; reaching n does not end the run, the model may still answer', async () => {
    server.enqueue(lookTurn(2), { text: 'done' });
    const t = setup({ budget: { toolCalls: 2 } });
    const result = await t.run();
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('done');
    expect(t.look.calls).toHaveLength(2);
  });

  it('a final answer that crosses a token budget completes the run: nothing was kept from happening', async () => {
    server.enqueue(lookTurn(1), { text: 'done', usage: { prompt_tokens: 500, completion_tokens: 5 } });
    const t = setup({ budget: { inputTokens: 200 } });
    const result = await t.run();
    expect(result.stopReason).toBe('completed');
    expect(result.state.usage.inputTokens).toBe(600);
  });

  it('toolCalls: 0 runs no tool at all', async () => {
    server.enqueue(lookTurn(2));
    const t = setup({ budget: { toolCalls: 0 } });
    const result = await t.run();
    expect(result.stopReason).toBe('budget');
    expect(t.look.calls).toHaveLength(0);
    expect(t.ended.map((e) => e.outcome)).toEqual(['skipped', 'skipped']);
    answeredInOrder(result.completeMessages);
  });

  it.each([1, 4])(
    'toolCalls with several calls a turn runs exactly n of them (toolConcurrency %i)',
    async (toolConcurrency) => {
      server.enqueue(lookTurn(3), lookTurn(3), lookTurn(3));
      const gate = { open: 0, most: 0 };
      const look = fakeTool('look', async () => {
        gate.most = Math.max(gate.most, ++gate.open);
        await new Promise((resolve) => setTimeout(resolve, 5));
        gate.open--;
        return { response: 'seen' };
      });
      const t = setup({ budget: { toolCalls: 4 }, toolConcurrency, tools: [look] });
      const result = await t.run();
      expect(result.stopReason).toBe('budget');
      expect(look.calls).toHaveLength(4);
      expect(look.calls.map((c) => (c.params as { i: number }).i)).toEqual([0, 1, 2, 0]);
      expect(server.requests).toHaveLength(2);
      answeredInOrder(result.completeMessages);
      // Calls started at once end in any order: each call's outcome, in call order.
      const outcomes = new Map(t.ended.map((e) => [e.call.id, e.outcome]));
      const ids = result.completeMessages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
      expect(ids.map((id) => outcomes.get(id))).toEqual(['ok', 'ok', 'ok', 'ok', 'skipped', 'skipped']);
      expect(result.completeMessages.slice(-2).map((m) => m.content)).toEqual([
        expect.stringMatching(SPENT_TEXT),
        expect.stringMatching(SPENT_TEXT),
      ]);
      if (toolConcurrency > 1) expect(gate.most).toBeGreaterThan(1);
    },
  );

  it('prices cost from the model that answered: uncached input, cached input at cachedInput, output', async () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 800 };
    server.enqueue(lookTurn(1, usage), lookTurn(1, usage), lookTurn(1, usage));
    // (200 × $2 + 800 × $0.5 + 100 × $8) per million = $0.0016 a request.
    const t = setup({ budget: { costUsd: 0.003 }, prices: { m: { input: 2, output: 8, cachedInput: 0.5 } } });
    const result = await t.run();
    expect(result.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(2);
    expect(result.state.spent!.costUsd).toBeCloseTo(0.0032, 12);
    expect(result.usages.map((u) => u.cachedTokens)).toEqual([800, 800]);
  });

  it('prices cached input at input when cachedInput is not given', async () => {
    server.enqueue(lookTurn(1, { prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 800 }), { text: 'ok' });
    const t = setup({ budget: { costUsd: 1 }, prices: { m: { input: 2, output: 8 } } });
    const result = await t.run();
    expect(result.stopReason).toBe('completed');
    // The answer's own usage is the scripted server's estimate; the first request is 1000 × $2 + 100 × $8.
    const second = result.usages[1];
    const expected = (2000 + 800 + (second.inputTokens! * 2 + second.outputTokens! * 8)) / 1e6;
    expect(result.state.spent!.costUsd).toBeCloseTo(expected, 12);
  });

  it('a prices table missing the model is a named error at the start: no request, no tool', async () => {
    server.enqueue(lookTurn(1));
    const t = setup({ budget: { costUsd: 1 }, prices: { 'other-model': { input: 1, output: 1 } } });
    const result = await t.run();
    expect(result.stopReason).toBe('error');
    expect(MissingPriceError.isInstance(result.error)).toBe(true);
    expect((result.error as MissingPriceError).model).toBe('m');
    expect(result.error!.message).toContain('"m"');
    expect(server.requests).toHaveLength(0);
    expect(t.look.calls).toHaveLength(0);
  });

  it('checks the models of the fallback entries too, before any request', async () => {
    server.enqueue(lookTurn(1));
    const t = setup({
      budget: { costUsd: 1 },
      prices: { m: { input: 1, output: 1 }, backup: { input: 2, output: 2 } },
      fallback: [{ model: 'backup' }, { model: 'last-resort' }],
    });
    const result = await t.run();
    expect(result.stopReason).toBe('error');
    expect((result.error as MissingPriceError).model).toBe('last-resort');
    expect(server.requests).toHaveLength(0);
  });

  it('checks the summaries model too, and a costUsd budget without any prices', async () => {
    const t = setup({
      budget: { costUsd: 1 },
      prices: { m: { input: 1, output: 1 } },
      compression: { maxContext: 100_000, model: 'summarizer' },
    });
    const missingSummarizer = await t.run();
    expect((missingSummarizer.error as MissingPriceError).model).toBe('summarizer');
    const noPrices = await t.run({ prices: undefined });
    expect((noPrices.error as MissingPriceError).model).toBe('m');
    // Without a cost budget, prices are not needed.
    server.enqueue({ text: 'ok' });
    expect((await t.run({ budget: { toolCalls: 1 }, prices: undefined })).stopReason).toBe('completed');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [{ toolCalls: -1 }, 'budget.toolCalls'],
    [{ inputTokens: 1.5 }, 'budget.inputTokens'],
    [{ totalTokens: Number.NaN }, 'budget.totalTokens'],
    [{ costUsd: Number.POSITIVE_INFINITY }, 'budget.costUsd'],
    [{ costUsd: -0.1 }, 'budget.costUsd'],
    [{ toolCall: 3 }, 'budget.toolCall'],
    ['lots', 'budget'],
  ])('refuses a budget it cannot keep (%j): InvalidBudgetError, nothing runs', async (budget, path) => {
    server.enqueue(lookTurn(1));
    const result = await setup({ budget: budget as never }).run();
    expect(result.stopReason).toBe('error');
    expect(InvalidBudgetError.isInstance(result.error)).toBe(true);
    expect((result.error as InvalidBudgetError).path).toBe(path);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [{ m: { input: -1, output: 1 } }, 'prices["m"].input'],
    [{ m: { input: 1, output: Number.NaN } }, 'prices["m"].output'],
    [{ m: { input: 1, output: 1, cachedInput: '0.5' } }, 'prices["m"].cachedInput'],
    [{ m: null }, 'prices["m"].input'],
  ])('refuses a price it cannot use (%j)', async (prices, path) => {
    const result = await setup({ budget: { costUsd: 1 }, prices: prices as never }).run();
    expect((result.error as InvalidBudgetError).path).toBe(path);
    expect(server.requests).toHaveLength(0);
  });

  it('hands a state to resume from back as it came when the budget is refused: not signed, not checkpointed', async () => {
    server.enqueue(lookTurn(1), lookTurn(1));
    const secret = 'a long random secret kept server-side';
    const t = setup({ stateSecret: secret });
    const first = await t.run({ maxRunAgentTimes: 1 });
    const saved = t.checkpoints.length;
    const unsigned = { ...roundTrip(first.state), signature: undefined };
    const result = await t.run({ resumeFrom: unsigned, budget: { costUsd: 1 }, prices: {} });
    expect(MissingPriceError.isInstance(result.error)).toBe(true);
    expect(result.state).toBe(unsigned);
    expect(t.checkpoints).toHaveLength(saved);
  });

  it('does not take a price from Object.prototype', async () => {
    const result = await setup({
      body: { model: 'constructor', messages: [user('go')] },
      budget: { costUsd: 1 },
      prices: {},
    }).run();
    expect((result.error as MissingPriceError).model).toBe('constructor');
  });

  it('counts across a pause for approval and a resume through JSON', async () => {
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    server.enqueue(
      { toolCalls: [{ name: 'look' }, { name: 'pay' }] },
      ...Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'look' }] })),
    );
    const t = setup({ budget: { toolCalls: 3 }, tools: [] });
    const look = fakeTool('look', () => ({ response: 'seen' }));
    const paused = await t.run({ tools: [look, pay] });
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.spent).toEqual({ toolCalls: 1, costUsd: 0 });
    const payId = paused.state.pending[0].call.id;

    const resumed = await t.run({
      tools: [look, pay],
      resumeFrom: roundTrip(paused.state),
      decisions: { [payId]: { approve: true } },
    });
    expect(resumed.stopReason).toBe('budget');
    // look, pay (approved), look: three; the next look is answered without running.
    expect(look.calls).toHaveLength(2);
    expect(pay.calls).toHaveLength(1);
    expect(resumed.state.spent!.toolCalls).toBe(3);
    expect(server.requests).toHaveLength(3);
    answeredInOrder(resumed.completeMessages);
  });

  it('a request that spends the budget leaves no call pending: calls that need approval are answered too', async () => {
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    server.enqueue({
      toolCalls: [{ name: 'pay' }, { name: 'look' }],
      usage: { prompt_tokens: 100, completion_tokens: 1 },
    });
    const t = setup({ budget: { inputTokens: 100 } });
    const result = await t.run({ tools: [t.look, pay] });
    expect(result.stopReason).toBe('budget');
    expect(result.state.pending).toEqual([]);
    expect(pay.calls).toHaveLength(0);
    expect(t.ended.map((e) => [e.call.function.name, e.outcome, e.durationMs])).toEqual([
      ['pay', 'skipped', 0],
      ['look', 'skipped', 0],
    ]);
    answeredInOrder(result.completeMessages);
  });

  it('a resumed run with the same token budget stops at the same total, with no request', async () => {
    server.enqueue(...forever());
    const t = setup({ budget: { totalTokens: 250 } });
    const first = await t.run();
    expect(first.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(3);
    const again = await t.run({ resumeFrom: roundTrip(first.state) });
    expect(again.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(3);
    expect(again.state.usage).toEqual(first.state.usage);
    expect(again.state.spent).toEqual(first.state.spent);
    expect(again.completeMessages).toEqual(first.completeMessages);

    // A larger budget goes on from where the first stopped.
    const more = await t.run({ resumeFrom: roundTrip(first.state), budget: { totalTokens: 450 } });
    expect(more.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(5);
    expect(more.state.usage).toEqual({ inputTokens: 500, outputTokens: 50 });
    answeredInOrder(more.completeMessages);
  });

  it('splits a cost budget over two runs and stops at the same total as one run would', async () => {
    const prices = { m: { input: 1, output: 10 } };
    server.enqueue(...forever());
    const whole = await setup({ budget: { costUsd: 0.001 }, prices }).run();
    const wholeRequests = server.requests.length;

    await server.close();
    server = await startScriptedServer();
    server.enqueue(...forever());
    const t = setup({ prices });
    const part = await t.run({ budget: { costUsd: 0.0005 } });
    expect(part.stopReason).toBe('budget');
    const rest = await t.run({ budget: { costUsd: 0.001 }, resumeFrom: roundTrip(part.state) });
    expect(rest.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(wholeRequests);
    expect(rest.state.spent!.costUsd).toBeCloseTo(whole.state.spent!.costUsd, 12);
    expect(rest.state.usage).toEqual(whole.state.usage);
  });

  it('signs spent with the state: a lowered count is refused', async () => {
    server.enqueue(lookTurn(1), { text: 'ok' });
    const t = setup({ budget: { toolCalls: 1 }, stateSecret: 'a long random secret kept server-side' });
    const first = await t.run({ maxRunAgentTimes: 1 });
    expect(first.state.spent).toEqual({ toolCalls: 1, costUsd: 0 });
    const forged = { ...roundTrip(first.state), spent: { toolCalls: 0, costUsd: 0 } };
    const result = await t.run({ resumeFrom: forged });
    expect(result.stopReason).toBe('error');
    expect(result.error!.name).toBe('RunStateSignatureError');
    expect(server.requests).toHaveLength(1);
  });

  it('a state from a run without a budget counts its usage; its tool calls and cost start from zero', async () => {
    server.enqueue(lookTurn(1), lookTurn(1));
    const t = setup();
    const first = await t.run({ maxRunAgentTimes: 2 });
    expect(first.stopReason).toBe('max_turns');
    expect(first.state.spent).toBeUndefined();
    const resumed = await t.run({ resumeFrom: roundTrip(first.state), budget: { inputTokens: 200 } });
    expect(resumed.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(2);
    expect(resumed.state.spent).toEqual({ toolCalls: 0, costUsd: 0 });
  });

  it('keeps spent in the state when a later run has no budget', async () => {
    server.enqueue(lookTurn(2), { text: 'ok' });
    const t = setup();
    const first = await t.run({ budget: { toolCalls: 1 } });
    expect(first.state.spent).toEqual({ toolCalls: 1, costUsd: 0 });
    const later = await t.run({ resumeFrom: roundTrip(first.state) });
    expect(later.stopReason).toBe('completed');
    expect(later.state.spent).toEqual({ toolCalls: 1, costUsd: 0 });
  });

  it.each([
    [{ toolCalls: -1, costUsd: 0 }, 'spent.toolCalls'],
    [{ toolCalls: 1.5, costUsd: 0 }, 'spent.toolCalls'],
    [{ toolCalls: '2', costUsd: 0 }, 'spent.toolCalls'],
    [{ costUsd: 0 }, 'spent.toolCalls'],
    [{ toolCalls: 0, costUsd: -0.01 }, 'spent.costUsd'],
    [{ toolCalls: 0, costUsd: Number.NEGATIVE_INFINITY }, 'spent.costUsd'],
    [{ toolCalls: 0, costUsd: Number.NaN }, 'spent.costUsd'],
    [{ toolCalls: 0, costUsd: '0' }, 'spent.costUsd'],
    [{ toolCalls: 0, costUsd: 0, summaryInputTokens: -5 }, 'spent.summaryInputTokens'],
    [{ toolCalls: 0, costUsd: 0, summaryOutputTokens: Number.POSITIVE_INFINITY }, 'spent.summaryOutputTokens'],
    [[], 'spent'],
    [null, 'spent'],
  ])('refuses a resumed state whose spent is malformed (%j): nothing runs', async (spent, path) => {
    server.enqueue(lookTurn(1));
    const state = { v: 1, runId: 'r', messages: [user('go')], turn: 0, pending: [], spent } as unknown as RunState;
    const result = await setup({ budget: { toolCalls: 5 } }).run({ resumeFrom: state });
    expect(result.stopReason).toBe('error');
    expect(InvalidRunStateError.isInstance(result.error)).toBe(true);
    expect((result.error as InvalidRunStateError).path).toBe(path);
    expect(result.state).toBe(state);
    expect(server.requests).toHaveLength(0);
  });

  it('counts the loop summaries against the budget, and makes no request once they spent it', async () => {
    const big = 'x'.repeat(4000);
    const long = fakeTool('look', () => ({ response: big }));
    server.enqueue(
      { toolCalls: [{ name: 'look' }, { name: 'look' }], usage: { prompt_tokens: 10, completion_tokens: 1 } },
      // The first tool response's summary; it spends the budget, so the second response is cut, not summarised.
      { text: 'short', usage: { prompt_tokens: 300, completion_tokens: 5 } },
      { text: 'never sent' },
    );
    const t = setup({
      tools: [long],
      budget: { inputTokens: 200 },
      compression: { maxContext: 2000, reservedTokens: 100 },
    });
    const result = await t.run();
    expect(result.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(2);
    expect(server.pending()).toBe(1);
    expect(result.state.spent).toEqual({ toolCalls: 2, costUsd: 0, summaryInputTokens: 300, summaryOutputTokens: 5 });
    expect(result.state.usage).toEqual({ inputTokens: 10, outputTokens: 1 });
    answeredInOrder(result.completeMessages);
  });
});

describe('BudgetMeter', () => {
  const durable = () => newDurableState({}, undefined, undefined);

  it('stops on a request from a model it has no price for, rather than counting it at zero', () => {
    const meter = new BudgetMeter({ costUsd: 1 }, { m: { input: 1, output: 1 } });
    meter.bind(durable());
    meter.charge({ moduleName: 'agent_call', model: 'm', inputTokens: 10, outputTokens: 1 }, false);
    expect(meter.exhausted()).toBe(false);
    meter.charge({ moduleName: 'agent_call', model: 'elsewhere', inputTokens: 10, outputTokens: 1 }, false);
    expect(meter.exhausted()).toBe(true);
    expect(meter.failure?.model).toBe('elsewhere');
    expect(meter.admit()).toBe(false);
  });

  it('counts on from the usage and spent of the state it is bound to', () => {
    const state = durable();
    state.priorUsage = { inputTokens: 90, outputTokens: 5 };
    state.spent = { toolCalls: 2, costUsd: 0, summaryInputTokens: 10 };
    const meter = new BudgetMeter({ inputTokens: 100, toolCalls: 3 }, undefined);
    meter.bind(state);
    expect(meter.exhausted()).toBe(true);
    const fresh = new BudgetMeter({ inputTokens: 101, toolCalls: 3 }, undefined);
    fresh.bind(state);
    expect(fresh.admit()).toBe(true);
    expect(fresh.admit()).toBe(false);
    expect(state.spent.toolCalls).toBe(3);
  });
});
