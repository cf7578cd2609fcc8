import { Redis } from 'ioredis';
import { AgentRuns, ResumeTokenError } from '../../src/bullmq';
import type { RunRecord } from '../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startWorker, type WorkerProcess } from './worker-processes';

// Worker processes compile the sources as they start: slow on a loaded 2-core machine.
jest.setTimeout(420_000);

/** The run id the test put in the first user message (`run <id>`), and the turn the request asks for. */
function turnOf(request: RecordedRequest): { runId: string; turn: number } {
  const messages = request.body.messages;
  const runId = String(messages[0].content).split(' ')[1];
  return { runId, turn: messages.filter((m) => m.role === 'assistant').length };
}

describe('AgentRuns across worker processes', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let client: Redis;
  let runs: AgentRuns;
  const workers: WorkerProcess[] = [];
  let env: Record<string, string>;
  let testCount = 0;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ host: redis.host, port: redis.port });
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });
  beforeEach(async () => {
    testCount++;
    server = await startScriptedServer();
    const prefix = `${redis.namespace}:${testCount}`;
    env = {
      REDIS_PORT: String(redis.port),
      QUEUE: `${redis.namespace}-mp${testCount}`,
      PREFIX: prefix,
      BASE_URL: server.baseURL,
    };
    runs = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName: env.QUEUE,
      prefix,
      secret: 'test-secret',
    });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill()));
    await runs.close();
    await server.close();
  });

  /** Answer every request of this test with `reply(runId, turn)`. */
  function script(reply: (runId: string, turn: number, request: number) => ScriptedReply, count: number): void {
    server.enqueue(
      ...Array.from({ length: count }, () => (request: RecordedRequest) => {
        const { runId, turn } = turnOf(request);
        return reply(runId, turn, request.index);
      }),
    );
  }

  async function worker(name: string, extra: Record<string, string> = {}): Promise<WorkerProcess> {
    const started = await startWorker(name, { ...env, ...extra });
    workers.push(started);
    return started;
  }

  it('completes 30 runs of 4 turns over 3 processes, one SIGKILLed mid-tool, each journaled side effect once', async () => {
    // Turns 0-2: a journaled side effect, then a slow tool; turn 3 answers. Call ids are new on every request, as a
    // real model's are: a turn asked for again would run its calls again under new ids.
    script(
      (runId, turn, request) =>
        turn < 3
          ? {
              toolCalls: [
                { id: `${runId}-t${turn}-a-r${request}`, name: 'record' },
                { id: `${runId}-t${turn}-b-r${request}`, name: 'slow' },
              ],
            }
          : { text: `done ${runId}` },
      400,
    );
    // The doomed worker runs one job at a time, so at the kill its only work in flight is the hung call (its turn's
    // first call journaled). Its short lock lets the others take the job over soon; theirs are long, so a loaded
    // machine does not make them lose jobs they are still running (a duplicate no journal can prevent).
    const [doomed] = await Promise.all([
      worker('w1', { HANG_IN_SLOW: '1', CONCURRENCY: '1', LOCK_MS: '3000' }),
      worker('w2'),
      worker('w3'),
    ]);

    const ids = Array.from({ length: 30 }, (_, i) => `run-${i}`);
    await Promise.all(ids.map((id) => runs.start({ runId: id, body: { model: 'm', messages: [user(`run ${id}`)] } })));

    const [, hungRun, hungCall] = (await doomed.line('HANG')).split(' ');
    await doomed.kill();
    const replacement = worker('w4');

    const records = await Promise.all(ids.map((id) => runs.wait(id, { timeoutMs: 300_000 })));
    await replacement;
    for (const record of records) {
      expect([record.runId, record.status, record.state.turn, record.text]).toEqual([
        record.runId,
        'completed',
        4,
        `done ${record.runId}`,
      ]);
      assertValidHistory(record.state.messages, record.runId);
      expect(record.state.messages).toHaveLength(1 + 3 * 3 + 1);
    }
    // Every call ran to completion exactly once: the journal answered the calls the killed attempt had finished.
    for (const id of ids) {
      for (let turn = 0; turn < 3; turn++) {
        for (const suffix of ['a', 'b']) {
          const key = `${env.PREFIX}:fx:${id}:${id}-t${turn}-${suffix}`;
          expect([key, Number(await client.get(key))]).toEqual([key, 1]);
        }
      }
    }
    // The killed process had journaled the first call of the hung turn; its run was finished by another worker.
    expect(hungCall).toMatch(/-b-r\d+$/);
    const hungSetups = await client.lrange(`${env.PREFIX}:setup:${hungRun}`, 0, -1);
    expect(hungSetups).toContain('w1');
    expect(hungSetups[hungSetups.length - 1]).not.toBe('w1');
  });

  it('pauses for approval on one worker and finishes on another after an authenticated decision', async () => {
    script(
      (runId, turn) =>
        turn === 0 ? { toolCalls: [{ id: `${runId}-ask`, name: 'approve' }] } : { text: `approved ${runId}` },
      10,
    );
    const first = await worker('A');
    const { runId } = await runs.start({ runId: 'ap-1', body: { model: 'm', messages: [user('run ap-1')] } });
    const waiting = await runs.wait(runId, { timeoutMs: 60_000 });
    expect(waiting.status).toBe('waiting');
    expect(waiting.state.pending.map((p) => p.call.id)).toEqual(['ap-1-ask']);
    // Reads never carry the token: the app asks for it, for the person who may decide.
    expect(waiting).not.toHaveProperty('resumeToken');
    const token = await runs.resumeToken(runId);
    expect(token).toEqual(expect.any(String));
    await first.stop();

    await worker('B');
    await runs.decide(runId, { 'ap-1-ask': { approve: true } }, { token });
    const done = await runs.wait(runId, { timeoutMs: 60_000 });
    expect(done.status).toBe('completed');
    expect(done.text).toBe('approved ap-1');
    assertValidHistory(done.state.messages);
    // The approved call ran on the worker that took the decision.
    expect(done.state.messages).toContainEqual({ role: 'tool', tool_call_id: 'ap-1-ask', content: 'approved on B' });
    expect(await client.lrange(`${env.PREFIX}:setup:${runId}`, 0, -1)).toEqual(['A', 'B']);
  });

  it('refuses a forged or stale resume token and changes nothing', async () => {
    script((runId, turn) => ({ toolCalls: [{ id: `${runId}-ask${turn}`, name: 'approve' }] }), 10);
    await worker('A');
    const { runId } = await runs.start({ runId: 'tok-1', body: { model: 'm', messages: [user('run tok-1')] } });
    await runs.wait(runId, { timeoutMs: 60_000 });
    const firstToken = await runs.resumeToken(runId);
    await runs.decide(runId, { 'tok-1-ask0': { answer: { response: 'yes' } } }, { token: firstToken });
    let second = await runs.wait(runId, { timeoutMs: 60_000 });
    for (let i = 0; second.status !== 'waiting' || second.state.turn < 2; i++) {
      second = await runs.wait(runId, { timeoutMs: 60_000 });
      if (i > 50) throw new Error(`run did not pause again: ${second.status}`);
    }
    expect(second.state.pending.map((p) => p.call.id)).toEqual(['tok-1-ask1']);
    const secondToken = await runs.resumeToken(runId);
    const before = await snapshot(runId);

    const forged = Buffer.from(`2.${Buffer.alloc(32, 7).toString('base64url')}`).toString('base64url');
    const otherSecret = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName: env.QUEUE,
      prefix: env.PREFIX,
      secret: 'another secret',
    });
    const signedElsewhere = await otherSecret.resumeToken(runId);
    await otherSecret.close();
    const attempts: [string | undefined, string][] = [
      [firstToken, 'stale'],
      [forged, 'forged'],
      [signedElsewhere, 'forged'],
      ['not a token', 'forged'],
      [undefined, 'missing'],
    ];
    for (const [token, problem] of attempts) {
      const refused = runs.decide(runId, { 'tok-1-ask1': { approve: true } }, { token });
      await expect(refused).rejects.toBeInstanceOf(ResumeTokenError);
      await expect(refused).rejects.toMatchObject({ problem });
    }
    expect(await snapshot(runId)).toEqual(before);
    expect(await runs.get(runId)).toMatchObject({ status: 'waiting' });
    expect(await runs.resumeToken(runId)).toBe(secondToken);
  });

  it('cancels a run from another process within a second, aborting its running tool', async () => {
    script((runId) => ({ toolCalls: [{ id: `${runId}-w`, name: 'wait_cancel' }] }), 5);
    const w = await worker('A');
    const { runId } = await runs.start({ runId: 'cx-1', body: { model: 'm', messages: [user('run cx-1')] } });
    await w.line('WAITING');
    const cancelledAt = Date.now();
    await runs.cancel(runId);
    const record = await runs.wait(runId, { timeoutMs: 10_000 });
    expect(record.status).toBe('cancelled');
    // The tool saw its signal abort; a generous bound on when, since the machine may be loaded.
    let abortedAt: string | null = null;
    for (let i = 0; i < 100 && !abortedAt; i++) {
      abortedAt = await client.get(`${env.PREFIX}:aborted:${runId}`);
      if (!abortedAt) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(abortedAt).not.toBeNull();
    expect(Number(abortedAt) - cancelledAt).toBeLessThan(1000);
    // Nothing advances a cancelled run: no further model request was made for it.
    expect(server.requests.filter((r) => turnOf(r).runId === runId)).toHaveLength(1);
  });

  async function snapshot(runId: string) {
    const keys = runs['store'].keys(runId);
    const run = await client.hgetall(keys.run);
    // A decision would queue the job of the run's current sequence number.
    return {
      run,
      events: await client.xlen(keys.events),
      nextJob: await client.exists(`bull:{${env.QUEUE}}:${runId}-${run.seq}`),
    };
  }
});

function user(content: string) {
  return { role: 'user' as const, content };
}

export type { RunRecord };
