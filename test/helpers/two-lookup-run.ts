import type { AgentRuns, RunEvent, RunRecord, RunSetup } from '../../src/bullmq';
import type { QueueTestbed } from './queue-testbed';
import { fakeTool, user } from './tools';

/**
 * The queue suites' multi-turn run: `lookup` called on two turns (`c1`, then `c2`), then the answer
 * `Done: 2 lookups.`, on a worker of `runs`, started with `meta: { tenant: 'a' }`. Resolves once it ended, with its
 * record, its events, the tool (and its calls), and the kinds of its events (`status:<status>` for a status, runs
 * of text as one `text`).
 */
export async function twoLookupRun(bed: QueueTestbed, runs: AgentRuns) {
  const lookup = fakeTool('lookup', ({ call }) => ({ response: `result of ${call.id}` }));
  bed.server.enqueue(
    { text: 'Looking.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 1 } }] },
    { toolCalls: [{ id: 'c2', name: 'lookup', arguments: { q: 2 } }] },
    { text: 'Done: 2 lookups.' },
  );
  const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [lookup] });
  await runs.worker({ setup }).waitUntilReady();
  const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] }, meta: { tenant: 'a' } });
  const record: RunRecord = await runs.wait(runId, { timeoutMs: 20_000 });
  const events: RunEvent[] = [];
  for await (const event of runs.events(runId)) events.push(event);
  const kinds = events.map((e) => (e.type === 'status' ? `status:${e.status}` : e.type));
  return {
    runId,
    record,
    events,
    lookup,
    kinds: kinds.filter((kind, i) => kind !== 'text' || kinds[i - 1] !== 'text'),
  };
}

/** The event kinds of {@link twoLookupRun}, in order. */
export const TWO_LOOKUP_KINDS = [
  'status:queued',
  'status:running',
  'text',
  'tool_call',
  'tool_result',
  'tool_call',
  'tool_result',
  'text',
  'status:completed',
];
