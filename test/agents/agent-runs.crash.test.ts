import { Redis } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { user } from '../helpers/tools';
import { startAgentWorker, type AgentWorker } from './agent-worker-process';

// Worker processes compile the sources as they start: slow on a loaded machine.
jest.setTimeout(420_000);

type Message = { role: string; content?: unknown; tool_call_id?: string };

/** Who asks (the root or the agent), for which run (`run <id>` in the first user message), at which turn. */
function askerOf(request: RecordedRequest): { runId: string; who: 'root' | 'agent'; turn: number } {
  const messages = request.body.messages as Message[];
  const who = messages[0].role === 'system' ? 'agent' : 'root';
  const runId = String(messages.find((m) => m.role === 'user')?.content).split(' ')[1];
  return { runId, who, turn: messages.filter((m) => m.role === 'assistant').length };
}

describe('AgentRuns with a sub-agent across worker processes', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let client: Redis;
  let runs: AgentRuns;
  const workers: AgentWorker[] = [];
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
    const prefix = `${redis.namespace}:ag${testCount}`;
    env = { REDIS_PORT: String(redis.port), QUEUE: `${redis.namespace}-ag${testCount}`, PREFIX: prefix };
    env.BASE_URL = server.baseURL;
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

  async function worker(name: string, extra: Record<string, string> = {}): Promise<AgentWorker> {
    const started = await startAgentWorker({ ...env, WORKER: name, ...extra });
    workers.push(started);
    return started;
  }

  /** Answer every request with `reply`, given who asks and at which turn. */
  function script(reply: (asker: ReturnType<typeof askerOf>, request: number) => ScriptedReply, count: number): void {
    server.enqueue(...Array.from({ length: count }, () => (r: RecordedRequest) => reply(askerOf(r), r.index)));
  }

  it('resumes an agent at its last turn on another worker after a SIGKILL inside it; no finished call runs twice', async () => {
    script(({ runId, who, turn }, r) => {
      if (who === 'root')
        return turn === 0
          ? { toolCalls: [{ id: `R-r${r}`, name: 'research', arguments: { task: `run ${runId}` } }] }
          : { text: `done ${runId}` };
      if (turn === 0) return { toolCalls: [{ id: `c0a-r${r}`, name: 'record' }] };
      if (turn === 1)
        return {
          toolCalls: [
            { id: `c1a-r${r}`, name: 'record' },
            { id: `c1b-r${r}`, name: 'slow' },
          ],
        };
      return { text: `agent ${runId}` };
    }, 20);
    // Its short lock lets the next worker take the job over soon after the kill.
    const doomed = await worker('w1', { HANG_IN_SLOW: '1', LOCK_MS: '3000' });
    await runs.start({ runId: 'crash-1', body: { model: 'm', messages: [user('run crash-1')] } });
    const hung = (await doomed.line('HANG')).split(' ')[1];
    expect(hung).toMatch(/^crash-1:R-r0\/c1b-r\d+$/);
    // The agent's first turn was saved as the root's checkpoint: the root's call under way, the agent in children.
    const atKill = await runs.get('crash-1');
    expect(atKill.state.pending).toEqual([]);
    expect(atKill.state.children?.['R-r0'].messages.filter((m) => m.role === 'tool')).toEqual([
      {
        role: 'tool',
        tool_call_id: expect.stringMatching(/^c0a-r/),
        content: expect.stringMatching(/^recorded c0a-r/),
      },
    ]);
    await doomed.kill();
    await worker('w2');

    const done = await runs.wait('crash-1', { timeoutMs: 300_000 });
    expect([done.status, done.text]).toEqual(['completed', 'done crash-1']);
    assertValidHistory(done.state.messages, 'crash-1');
    expect(done.state.children).toBeUndefined();
    expect(done.state.messages.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'R-r0', content: 'agent crash-1' },
    ]);
    // The agent went on at its second turn: neither the root's turn nor the agent's first was asked for again, and the
    // second's response came back from the journal to the worker that took over.
    const asked = server.requests.map((r) => askerOf(r)).map(({ who, turn }) => `${who}:${turn}`);
    expect(asked).toEqual(['root:0', 'agent:0', 'agent:1', 'agent:2', 'root:1']);
    // Each call ran to completion once: the first turn's from the saved state, the second's record from the journal.
    for (const call of ['c0a', 'c1a', 'c1b']) {
      const key = `${env.PREFIX}:fx:crash-1:R-r0/${call}`;
      expect([call, Number(await client.get(key))]).toEqual([call, 1]);
    }
    expect(await client.lrange(`${env.PREFIX}:setup:crash-1`, 0, -1)).toEqual(['w1', 'w2']);
  });

  it('a call of the root that finished beside the agent is not run again after a SIGKILL inside the agent', async () => {
    script(({ runId, who, turn }, r) => {
      if (who === 'root')
        return turn === 0
          ? {
              toolCalls: [
                { id: `R-r${r}`, name: 'research', arguments: { task: `run ${runId}` } },
                { id: `N-r${r}`, name: 'note' },
              ],
            }
          : { text: `done ${runId}` };
      if (turn === 0) return { toolCalls: [{ id: `c0a-r${r}`, name: 'record' }] };
      if (turn === 1) return { toolCalls: [{ id: `c1b-r${r}`, name: 'slow' }] };
      return { text: `agent ${runId}` };
    }, 20);
    const doomed = await worker('w1', { HANG_IN_SLOW: '1', LOCK_MS: '3000', ROOT_NOTE: '1' });
    await runs.start({ runId: 'beside-1', body: { model: 'm', messages: [user('run beside-1')] } });
    await doomed.line('HANG');
    // The note finished before the agent's first turn was saved (the checkpoint that once cleared its journal entry).
    expect(Number(await client.get(`${env.PREFIX}:fx:beside-1:N`))).toBe(1);
    await doomed.kill();
    await worker('w2', { ROOT_NOTE: '1' });

    const done = await runs.wait('beside-1', { timeoutMs: 300_000 });
    expect([done.status, done.text]).toEqual(['completed', 'done beside-1']);
    assertValidHistory(done.state.messages, 'beside-1');
    for (const key of ['N', 'R-r0/c0a', 'R-r0/c1b']) {
      expect([key, Number(await client.get(`${env.PREFIX}:fx:beside-1:${key}`))]).toEqual([key, 1]);
    }
  });

  it("decides an agent's approval on another worker, by its full path", async () => {
    script(({ runId, who, turn }, r) => {
      if (who === 'root')
        return turn === 0
          ? { toolCalls: [{ id: `R-r${r}`, name: 'research', arguments: { task: `run ${runId}` } }] }
          : { text: `done ${runId}` };
      return turn === 0 ? { toolCalls: [{ id: 'pay-1', name: 'pay' }] } : { text: `agent ${runId}` };
    }, 10);
    const first = await worker('A');
    await runs.start({ runId: 'ap-1', body: { model: 'm', messages: [user('run ap-1')] } });
    const waiting = await runs.wait('ap-1', { timeoutMs: 120_000 });
    expect(waiting.status).toBe('waiting');
    expect(waiting.state.pending.map((p) => [...(p.agentPath ?? []), p.call.id].join('/'))).toEqual(['R-r0/pay-1']);
    const token = await runs.resumeToken('ap-1');
    await first.stop();

    await worker('B');
    await runs.decide('ap-1', { 'R-r0/pay-1': { approve: true } }, { token });
    const done = await runs.wait('ap-1', { timeoutMs: 120_000 });
    expect([done.status, done.text]).toEqual(['completed', 'done ap-1']);
    assertValidHistory(done.state.messages, 'ap-1');
    const agentTurn = server.requests.find((r) => askerOf(r).who === 'agent' && askerOf(r).turn === 1);
    expect((agentTurn?.body.messages as Message[]).filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'pay-1', content: 'paid on B' },
    ]);
    expect(Number(await client.get(`${env.PREFIX}:fx:ap-1:R-r0/pay-1`))).toBe(1);
    expect(await client.lrange(`${env.PREFIX}:setup:ap-1`, 0, -1)).toEqual(['A', 'B']);
  });
});
