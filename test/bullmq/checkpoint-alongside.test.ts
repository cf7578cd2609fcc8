import { RedisRunStore } from '../../src/bullmq';
import type { AgentRuns, CheckpointInput, RunEvent, RunSetup } from '../../src/bullmq';
import type { RecordedRequest, ScriptedReply } from '../../src/testing';
import { decodeEvent } from '../../src/bullmq/store/event-reader';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

type Late = 'answer' | 'refuse' | 'fail';

/**
 * A Redis store whose first turn checkpoint answers 300 ms late, and then as `late` says: with the store's own
 * answer, refused as if another job had checkpointed the run first, or failed as if Redis had gone away.
 */
class LateCheckpoint extends RedisRunStore {
  late: Late = 'answer';
  /** What the worker had done when the late checkpoint answered. */
  answeredWith?: { requests: number; lookups: number };
  private delayed = false;

  constructor(
    connection: ConstructorParameters<typeof RedisRunStore>[0],
    options: ConstructorParameters<typeof RedisRunStore>[1],
    private readonly progress: () => { requests: number; lookups: number },
  ) {
    super(connection, options);
  }

  override async checkpoint(input: CheckpointInput): Promise<number | undefined> {
    if (input.status !== 'running' || this.delayed) return super.checkpoint(input);
    this.delayed = true;
    await new Promise((resolve) => setTimeout(resolve, 300));
    this.answeredWith = this.progress();
    if (this.late === 'fail') throw new Error('Connection is closed.');
    // Another job checkpointed the run first: its sequence number moved on.
    if (this.late === 'refuse') await this.redis.hincrby(this.keys(input.runId).run, 'seq', 1);
    return super.checkpoint(input);
  }
}

/** The model: `lookup` on the first two turns (ids by turn), then the answer; as often as it is asked. */
function byHistory(request: RecordedRequest): ScriptedReply {
  const answered = request.body.messages.filter((m) => m.role === 'tool').length;
  if (answered >= 2) return { text: 'Done: 2 lookups.' };
  return { text: `Looking ${answered + 1}.`, toolCalls: [{ id: `c${answered + 1}`, name: 'lookup', arguments: {} }] };
}

describe("each turn's checkpoint goes out alongside the next model request", () => {
  const bed = useQueueTestbed();

  /** A worker on a {@link LateCheckpoint} store, and a run started on it. */
  async function started(late: Late, extra: { backoffMs?: number } = {}) {
    const lookup = fakeTool('lookup', ({ call }) => ({ response: `result of ${call.id}` }));
    const { host, port } = bed.redis;
    const progress = () => ({ requests: bed.server.requests.length, lookups: lookup.calls.length });
    const store = new LateCheckpoint({ host, port }, { prefix: bed.prefix }, progress);
    store.late = late;
    const runs: AgentRuns = bed.open({ store, ...extra });
    bed.server.enqueue(...Array.from({ length: 10 }, () => byHistory));
    const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [lookup] });
    await runs.worker({ setup }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    return { runs, store, lookup, runId };
  }

  async function kindsOf(store: RedisRunStore, runId: string): Promise<string[]> {
    const entries = await store.redis.xrange(store.keys(runId).events, '-', '+');
    return entries.map(([id, fields]) => describeEvent(decodeEvent(id, fields)));
  }

  it('asks the model again before the checkpoint answers, and runs the next tool only after it', async () => {
    const { runs, store, lookup, runId } = await started('answer');
    const done = await runs.wait(runId, { timeoutMs: 20_000 });

    expect(store.answeredWith).toEqual({ requests: 2, lookups: 1 });
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Done: 2 lookups.');
    expect(lookup.calls.map((c) => c.call.id)).toEqual(['c1', 'c2']);
    expect(bed.server.requests).toHaveLength(3);
    expect(await kindsOf(store, runId)).toEqual([
      'status:queued',
      'status:running',
      'text:Looking 1.',
      'tool_call:c1',
      'tool_result:c1',
      'text:Looking 2.',
      'tool_call:c2',
      'tool_result:c2',
      'text:Done: 2 lookups.',
      'status:completed',
    ]);
  });

  it('stops at a refused checkpoint: the next turn runs no tool and writes nothing', async () => {
    const { runs, store, lookup, runId } = await started('refuse');
    await until(() => store.answeredWith !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(store.answeredWith).toEqual({ requests: 2, lookups: 1 });
    expect(lookup.calls.map((c) => c.call.id)).toEqual(['c1']);
    expect(bed.server.requests).toHaveLength(2);
    const run = await runs.get(runId);
    expect(run.status).toBe('running');
    expect(run.state.turn).toBe(0);
    // The response that made c1 was journaled before c1 ran; nothing of the refused checkpoint or the next turn.
    expect(await kindsOf(store, runId)).toEqual(['status:queued', 'status:running', 'text:Looking 1.', 'tool_call:c1']);
  });

  it('fails the job at a failed checkpoint; the retry goes on from the last checkpoint', async () => {
    const { runs, store, lookup, runId } = await started('fail', { backoffMs: 10 });
    const done = await runs.wait(runId, { timeoutMs: 20_000 });

    expect(store.answeredWith).toEqual({ requests: 2, lookups: 1 });
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Done: 2 lookups.');
    // The first turn's call was saved by nothing but the failed checkpoint: the retry runs it again.
    expect(lookup.calls.map((c) => c.call.id)).toEqual(['c1', 'c1', 'c2']);
    const kinds = await kindsOf(store, runId);
    expect(kinds.filter((k) => k === 'tool_call:c2')).toHaveLength(1);
    expect(kinds).toContain('status:running#2');
  });
});

function describeEvent(event: RunEvent): string {
  switch (event.type) {
    case 'status':
      return `status:${event.status}${(event.attempt ?? 1) > 1 ? `#${event.attempt}` : ''}`;
    case 'text':
      return `text:${event.text}`;
    case 'tool_call':
      return `tool_call:${event.call.id}`;
    case 'tool_result':
      return `tool_result:${event.callId}`;
    default:
      return event.type;
  }
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
