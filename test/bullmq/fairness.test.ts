import { AgentRuns } from '../../src/bullmq';
import type { RunSetup } from '../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeTool, user } from '../helpers/tools';

const LONG_RUNS = 4;
const LONG_TURNS = 300;
const SHORT_RUNS = 50;
const CONCURRENCY = 4;

jest.setTimeout(240_000);

describe('AgentRuns fairness: long runs hand the worker back', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let runs: AgentRuns;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  const others: AgentRuns[] = [];
  afterEach(async () => {
    await Promise.all([runs, ...others.splice(0)].map((r) => r.close()));
    await server.close();
  });

  /** Long runs call `step` on every turn until their last; short ones call it once, then answer. */
  function script(): void {
    const reply = (request: RecordedRequest) => {
      const kind = String(request.body.messages[0].content);
      const turn = request.body.messages.filter((m) => m.role === 'assistant').length;
      const last = kind === 'long' ? LONG_TURNS - 1 : 1;
      return turn < last
        ? { toolCalls: [{ id: `s${request.index}`, name: 'step', arguments: { turn } }] }
        : { text: `${kind} done` };
    };
    server.enqueue(...Array.from({ length: LONG_RUNS * LONG_TURNS + SHORT_RUNS * 2 + 50 }, () => reply));
  }

  async function race(extra: Partial<ConstructorParameters<typeof AgentRuns>[0]>, name: string) {
    runs = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName: `${redis.namespace}-${name}`,
      prefix: `${redis.namespace}:${name}`,
      ...extra,
    });
    script();
    const step = fakeTool('step', () => ({ response: 'stepped' }));
    const setup = async (): Promise<RunSetup> => ({
      client: server.client(),
      tools: [step],
      maxRunAgentTimes: LONG_TURNS,
      maxConsecutiveToolTurns: 0,
    });
    await runs.worker({ concurrency: CONCURRENCY, setup }).waitUntilReady();
    const long = await Promise.all(
      Array.from({ length: LONG_RUNS }, () => runs.start({ body: { model: 'm', messages: [user('long')] } })),
    );
    // Every slot of the worker is taken by a long run before the short ones arrive.
    while (step.calls.length < LONG_RUNS * 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const short = await Promise.all(
      Array.from({ length: SHORT_RUNS }, () => runs.start({ body: { model: 'm', messages: [user('short')] } })),
    );
    const shortDone = await Promise.all(short.map(({ runId }) => runs.wait(runId, { timeoutMs: 200_000 })));
    const longThen = await Promise.all(long.map(({ runId }) => runs.get(runId)));
    await Promise.all(long.map(({ runId }) => runs.cancel(runId)));
    return { shortDone, longThen };
  }

  it('finishes 50 short runs while 4 runs of 300 turns hold a worker of concurrency 4', async () => {
    const { shortDone, longThen } = await race({}, 'fair');
    expect(shortDone.map((r) => r.status)).toEqual(Array(SHORT_RUNS).fill('completed'));
    // None of the long runs had ended, nor come near its end, when the last short one was done.
    for (const record of longThen) {
      expect(record.status).toBe('running');
      expect(record.state.turn).toBeLessThan(LONG_TURNS / 2);
    }
  });

  it('hands a run back at its next checkpoint when its worker closes, and another worker finishes it', async () => {
    const options = {
      connection: { host: redis.host, port: redis.port },
      queueName: `${redis.namespace}-closing`,
      prefix: `${redis.namespace}:closing`,
      // No slice would end the job: only the close does.
      turnsPerJob: 10_000,
      jobSliceMs: 600_000,
    };
    runs = new AgentRuns(options);
    script();
    const step = fakeTool('step', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { response: 'stepped' };
    });
    const setup = async (): Promise<RunSetup> => ({
      client: server.client(),
      tools: [step],
      maxRunAgentTimes: LONG_TURNS,
      maxConsecutiveToolTurns: 0,
    });
    await runs.worker({ setup }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('long')] } });
    while (step.calls.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    await runs.close();
    // The closed worker stopped at a checkpoint, far from the run's end, and left it to the queue.
    const handedBack = await others[others.push(new AgentRuns(options)) - 1].get(runId);
    expect(handedBack.status).toBe('running');
    expect(handedBack.state.turn).toBeLessThan(LONG_TURNS / 2);
    expect(step.calls.length).toBe(handedBack.state.turn);

    runs = new AgentRuns(options);
    await runs.worker({ setup }).waitUntilReady();
    const done = await runs.wait(runId, { timeoutMs: 200_000 });
    expect(done.status).toBe('completed');
    expect(done.state.turn).toBe(LONG_TURNS);
    // Every step ran once: the second worker went on from the first one's last checkpoint.
    expect(step.calls.map((c) => (c.params as { turn: number }).turn)).toEqual(
      Array.from({ length: LONG_TURNS - 1 }, (_, i) => i),
    );
  });
});
