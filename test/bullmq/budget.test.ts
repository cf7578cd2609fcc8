import type { RunSetup } from '../../src/bullmq';
import { assertValidHistory } from '../helpers/history';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe('AgentRuns with a budget', () => {
  const bed = useQueueTestbed();

  it('counts the budget across the jobs of a run and ends it as completed with stopReason budget', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'more' }));
    bed.server.enqueue(...Array.from({ length: 20 }, () => ({ toolCalls: [{ name: 'lookup' }] })));
    // One turn per job: every turn is a resume from the state the last job saved.
    const runs = bed.open({ turnsPerJob: 1 });
    const setup = async (): Promise<RunSetup> => ({
      client: bed.server.client(),
      tools: [lookup],
      budget: { toolCalls: 3 },
    });
    await runs.worker({ setup }).waitUntilReady();

    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const record = await runs.wait(runId, { timeoutMs: 20_000 });

    expect(record).toMatchObject({ status: 'completed', stopReason: 'budget' });
    expect(lookup.calls).toHaveLength(3);
    expect(bed.server.requests).toHaveLength(4);
    expect(record.state.spent).toEqual({ toolCalls: 3, costUsd: 0 });
    assertValidHistory(record.state.messages);
  });
});
