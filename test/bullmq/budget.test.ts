import { AgentRuns } from '../../src/bullmq';
import type { RunSetup } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeTool, user } from '../helpers/tools';

describe('AgentRuns with a budget', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let runs: AgentRuns | undefined;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => {
    await runs?.close();
    await server.close();
  });

  it('counts the budget across the jobs of a run and ends it as completed with stopReason budget', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'more' }));
    server.enqueue(...Array.from({ length: 20 }, () => ({ toolCalls: [{ name: 'lookup' }] })));
    runs = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName: `${redis.namespace}-budget`,
      prefix: `${redis.namespace}:budget`,
      // One turn per job: every turn is a resume from the state the last job saved.
      turnsPerJob: 1,
    });
    const setup = async (): Promise<RunSetup> => ({
      client: server.client(),
      tools: [lookup],
      budget: { toolCalls: 3 },
    });
    await runs.worker({ setup }).waitUntilReady();

    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const record = await runs.wait(runId, { timeoutMs: 20_000 });

    expect(record).toMatchObject({ status: 'completed', stopReason: 'budget' });
    expect(lookup.calls).toHaveLength(3);
    expect(server.requests).toHaveLength(4);
    expect(record.state.spent).toEqual({ toolCalls: 3, costUsd: 0 });
    assertValidHistory(record.state.messages);
  });
});
