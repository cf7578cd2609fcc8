import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import { RunStateVersionError } from '../../src/errors';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('runAgentLoop run state', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const lookup = () => fakeTool('lookup', () => ({ response: 'found' }));

  it('returns a versioned, JSON-plain state on every stop reason, with turn and usage totals', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'lookup' }], usage: { prompt_tokens: 10, completion_tokens: 3 } },
      { text: 'done', usage: { prompt_tokens: 20, completion_tokens: 5 } },
    );
    const result = await runAgentLoop({
      client: server.client(),
      runId: 'run-1',
      body: { model: 'm', messages: [user('hi')] },
      tools: [lookup()],
    });
    expect(result.stopReason).toBe('completed');
    expect(result.state).toEqual({
      v: 1,
      runId: 'run-1',
      messages: result.completeMessages,
      turn: 2,
      usage: { inputTokens: 30, outputTokens: 8 },
      loopGuard: expect.objectContaining({ signature: expect.any(String), repeats: expect.any(Number) }),
      pending: [],
    });
    expect(roundTrip(result.state)).toEqual(result.state);
    expect('caller' in result.state).toBe(false);

    server.enqueue({ status: 500, errorMessage: 'boom' });
    const failed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('x')] },
      tools: [],
    });
    expect(failed.stopReason).toBe('error');
    expect(failed.state.v).toBe(1);
    expect(failed.state.turn).toBe(1);
    expect(typeof failed.state.runId).toBe('string');
    expect(failed.state.runId).not.toBe('');
  });

  it('resumes from a saved state: history replaces body.messages, turns and usage keep counting', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }], usage: { prompt_tokens: 7, completion_tokens: 1 } });
    const first = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('hi')] },
      tools: [lookup()],
      maxRunAgentTimes: 1,
    });
    expect(first.stopReason).toBe('max_turns');
    server.enqueue({ text: 'ok', usage: { prompt_tokens: 9, completion_tokens: 2 } });
    const second = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('ignored')] },
      tools: [lookup()],
      resumeFrom: roundTrip(first.state),
      maxRunAgentTimes: 2,
    });
    expect(second.stopReason).toBe('completed');
    expect(server.requests[1].body.messages).toEqual(first.state.messages);
    expect(second.state.runId).toBe(first.state.runId);
    expect(second.state.turn).toBe(2);
    expect(second.state.usage).toEqual({ inputTokens: 16, outputTokens: 3 });
    expect(second.runTimes).toBe(1);

    // maxRunAgentTimes counts across resumes: the budget of 2 is used up.
    const third = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [],
      resumeFrom: roundTrip(second.state),
      maxRunAgentTimes: 2,
    });
    expect(third.stopReason).toBe('max_turns');
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a state of an unknown version with RunStateVersionError, without starting afresh', async () => {
    const checkpoints: RunState[] = [];
    const stale = { v: 2, runId: 'r', messages: [user('hi')], turn: 0, pending: [] } as unknown as RunState;
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('fresh')] },
      tools: [],
      resumeFrom: stale,
      onCheckpoint: (state) => {
        checkpoints.push(state);
      },
    });
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeInstanceOf(RunStateVersionError);
    expect(RunStateVersionError.isInstance(result.error)).toBe(true);
    expect((result.error as RunStateVersionError).version).toBe(2);
    expect(server.requests).toHaveLength(0);
    expect(checkpoints).toHaveLength(0);
    expect(result.state).toBe(stale);

    const garbage = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [],
      resumeFrom: 'not a state' as unknown as RunState,
    });
    expect(garbage.error).toBeInstanceOf(RunStateVersionError);
    expect(server.requests).toHaveLength(0);
  });

  it('awaits onCheckpoint after each turn and at the end, each time with a detached copy', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'lookup' }] },
      { toolCalls: [{ id: 'c2', name: 'lookup' }] },
      { text: 'done' },
    );
    const checkpoints: RunState[] = [];
    let saving = false;
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('hi')] },
      tools: [lookup()],
      onCheckpoint: async (state) => {
        expect(saving).toBe(false);
        saving = true;
        await new Promise((resolve) => setTimeout(resolve, 5));
        checkpoints.push(state);
        saving = false;
      },
    });
    expect(result.stopReason).toBe('completed');
    expect(checkpoints.map((s) => [s.turn, s.messages.length])).toEqual([
      [1, 3],
      [2, 5],
      [3, 6],
    ]);
    expect(checkpoints.at(-1)).toEqual(result.state);
    expect(checkpoints[0].messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'found' });
  });

  it('ends the run with stopReason error and that error when onCheckpoint rejects', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { text: 'never requested' });
    const tool = lookup();
    const failure = new Error('store is down');
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('hi')] },
      tools: [tool],
      onCheckpoint: async () => {
        throw failure;
      },
    });
    expect(result.stopReason).toBe('error');
    expect(result.error).toBe(failure);
    expect(server.requests).toHaveLength(1);
    expect(result.state.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'found' });

    // A rejection of the final checkpoint also turns a completed run into an error.
    server.enqueue({ text: 'answer' });
    const atEnd = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('hi')] },
      tools: [],
      onCheckpoint: () => Promise.reject(failure),
    });
    expect(atEnd.stopReason).toBe('error');
    expect(atEnd.error).toBe(failure);
  });

  it('hands caller to tools as ctx.caller, keeps it in the state, never sends it to the model', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { toolCalls: [{ id: 'c2', name: 'lookup' }] });
    const tool = lookup();
    const caller = { userId: 'u-secret-42', tenant: 't1' };
    const first = await runAgentLoop({
      client: server.client(),
      runId: 'run-c',
      body: { model: 'm', messages: [user('hi')] },
      tools: [tool],
      caller,
      maxRunAgentTimes: 1,
      stateSecret: 'state secret',
    });
    expect(tool.calls[0].caller).toBe(caller);
    expect(tool.calls[0].idempotencyKey).toBe('run-c:c1');
    expect(first.state.caller).toEqual(caller);
    // Resumed without the prop: the stored caller, verified with the state secret, still reaches tools.
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [tool],
      resumeFrom: roundTrip(first.state),
      maxRunAgentTimes: 2,
      stateSecret: 'state secret',
    });
    expect(tool.calls[1].caller).toEqual(caller);
    expect(tool.calls[1].idempotencyKey).toBe('run-c:c2');
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain('u-secret-42');
    assertValidRequests(server.requests);
  });
});
