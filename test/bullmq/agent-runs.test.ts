import { AgentRuns } from '../../src/bullmq';
import type { RunEvent, RunSetup } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeTool, user } from '../helpers/tools';

describe('AgentRuns on a real Redis', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  const opened: AgentRuns[] = [];
  let queueCount = 0;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    server = await startScriptedServer();
    queueCount++;
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((runs) => runs.close()));
    await server.close();
  });

  /** A fresh queue and key prefix per test, so no test sees what another left. */
  function open(extra: Partial<ConstructorParameters<typeof AgentRuns>[0]> = {}): AgentRuns {
    const runs = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName: `${redis.namespace}-q${queueCount}`,
      prefix: `${redis.namespace}:${queueCount}`,
      ...extra,
    });
    opened.push(runs);
    return runs;
  }

  it('runs a multi-turn run one turn per job and records every event', async () => {
    const lookup = fakeTool('lookup', ({ call }) => ({ response: `result of ${call.id}` }));
    server.enqueue(
      { text: 'Looking.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 1 } }] },
      { toolCalls: [{ id: 'c2', name: 'lookup', arguments: { q: 2 } }] },
      { text: 'Done: 2 lookups.' },
    );
    const runs = open();
    const setup = async (): Promise<RunSetup> => ({ client: server.client(), tools: [lookup] });
    await runs.worker({ setup }).waitUntilReady();

    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] }, meta: { tenant: 'a' } });
    const record = await runs.wait(runId, { timeoutMs: 20_000 });

    expect(record.status).toBe('completed');
    expect(record.stopReason).toBe('completed');
    expect(record.text).toBe('Done: 2 lookups.');
    expect(record.meta).toEqual({ tenant: 'a' });
    expect(record.state.turn).toBe(3);
    assertValidHistory(record.state.messages);
    expect(record.state.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(lookup.calls.map((c) => c.call.id)).toEqual(['c1', 'c2']);

    const events: RunEvent[] = [];
    for await (const event of runs.events(runId)) events.push(event);
    const summary = events.map((e) =>
      e.type === 'status' ? `status:${e.status}` : e.type === 'text' ? 'text' : `${e.type}`,
    );
    expect(summary.filter((s, i) => s !== 'text' || summary[i - 1] !== 'text')).toEqual([
      'status:queued',
      'status:running',
      'text',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'text',
      'status:completed',
    ]);
    const text = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    expect(text).toBe('Looking.Done: 2 lookups.');
  });
});
