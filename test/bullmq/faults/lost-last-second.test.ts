import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { AgentRuns } from '../../../src/bullmq';
import type { RunEvent } from '../../../src/bullmq';
import type { ToolExecuteContext } from '../../../src/index';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../../src/testing';
import { assertValidHistory } from '../../helpers/history';
import { unusedPort } from '../../helpers/network';
import { fakeTool, user } from '../../helpers/tools';

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A Redis whose machine can crash: `snapshot` keeps what Redis holds at that moment, `crashToSnapshot` SIGKILLs it and
 * starts it again on the same port from that older copy, as a machine crash under `appendfsync everysec` leaves it
 * with its last writes (up to a second of them, here more) gone although Redis had answered them.
 */
async function startCrashableRedis(): Promise<{
  port: number;
  snapshot(): Promise<void>;
  crashToSnapshot(): Promise<void>;
  stop(): Promise<void>;
}> {
  const port = await unusedPort();
  const dir = mkdtempSync(join(tmpdir(), 'agentcall-lost-'));
  const common = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  let child = await spawnReady([...common, '--appendonly', 'yes', '--appendfsync', 'everysec']);
  const admin = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: null });
  admin.on('error', () => undefined);
  return {
    port,
    snapshot: async () => {
      await admin.call('SAVE');
      copyFileSync(join(dir, 'dump.rdb'), join(dir, 'checkpoint.rdb'));
    },
    crashToSnapshot: async () => {
      await stop(child, 'SIGKILL');
      // The older copy comes back; the AOF, which holds the writes after it, is gone with the machine's page cache.
      rmSync(join(dir, 'appendonlydir'), { recursive: true, force: true });
      copyFileSync(join(dir, 'checkpoint.rdb'), join(dir, 'dump.rdb'));
      child = await spawnReady([...common, '--appendonly', 'no']);
      await admin.call('CONFIG', 'SET', 'appendonly', 'yes');
    },
    stop: async () => {
      admin.disconnect();
      await stop(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function spawnReady(argv: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * Redis loses its last answered writes (DESIGN §24): the snapshot is taken once the first turn's checkpoint is
 * acknowledged, the run goes on through a second turn's checkpoint into a third turn's call, and then Redis comes
 * back from the snapshot. The worker, alive all along, finds its next write refused at a sequence number the store
 * is now behind: the run goes on from the checkpoint that survived.
 */
describe('Redis loses its last second of writes (a machine crash under appendfsync everysec)', () => {
  let redis: Awaited<ReturnType<typeof startCrashableRedis>>;
  let server: ScriptedServer;

  beforeAll(async () => {
    redis = await startCrashableRedis();
    server = await startScriptedServer();
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it('ends the run once from the surviving checkpoint; a call whose result survived never runs again', async () => {
    const unhandled = jest.spyOn(console, 'error');
    const keys: Record<string, string[]> = { a: [], b: [], c: [] };
    const record = (ctx: ToolExecuteContext) => keys[ctx.call.id].push(ctx.idempotencyKey ?? 'none');
    const inFlight = deferred();
    const back = deferred();
    let snapshotTaken = false;
    const step = fakeTool('step', async (ctx) => {
      if (ctx.call.id === 'b' && !snapshotTaken) {
        // The first turn's checkpoint is acknowledged: this call waited for it.
        snapshotTaken = true;
        await redis.snapshot();
      }
      if (ctx.call.id === 'c' && keys.c.length === 0) {
        record(ctx);
        inFlight.resolve();
        await back.promise;
        return { response: 'c done' };
      }
      record(ctx);
      return { response: `${ctx.call.id} done` };
    });
    // The model answers by the turn it is asked for, as a real one asked the same history would give the same calls.
    const callOfTurn = ['a', 'b', 'c'];
    const reply = (request: RecordedRequest) => {
      const turn = request.body.messages.filter((m) => m.role === 'tool').length;
      return turn < callOfTurn.length
        ? { toolCalls: [{ id: callOfTurn[turn], name: 'step', arguments: {} }] }
        : { text: 'All done.' };
    };
    server.enqueue(...Array.from({ length: 12 }, () => reply));
    const connection = { host: '127.0.0.1', port: redis.port };
    const runs = new AgentRuns({ connection, queueName: 'lost', prefix: 'lost', backoffMs: 50 });
    try {
      await runs.worker({ setup: async () => ({ client: server.client(), tools: [step] }) }).waitUntilReady();
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });

      await inFlight.promise;
      await redis.crashToSnapshot();
      back.resolve();

      const done = await runs.wait(runId, { timeoutMs: 60_000 });
      expect([done.status, done.text]).toEqual(['completed', 'All done.']);
      assertValidHistory(done.state.messages);
      // `a`'s result was in the snapshot: it never ran again. `b`'s and `c`'s were lost: each ran at most once more,
      // under the same key.
      expect(keys.a).toEqual([`${runId}:a`]);
      for (const id of ['b', 'c']) {
        expect(keys[id].length).toBeGreaterThanOrEqual(1);
        expect(keys[id].length).toBeLessThanOrEqual(2);
        expect(new Set(keys[id])).toEqual(new Set([`${runId}:${id}`]));
      }
      const all: RunEvent[] = [];
      for await (const event of runs.events(runId)) all.push(event);
      for (const id of ['a', 'b', 'c']) {
        expect(all.filter((e) => e.type === 'tool_call' && e.call.id === id)).toHaveLength(1);
        expect(all.filter((e) => e.type === 'tool_result' && e.callId === id)).toHaveLength(1);
      }
      expect(all.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe('All done.');
      const finals = all.filter((e) => e.type === 'status' && e.status === 'completed');
      expect([finals.length, all.at(-1)]).toEqual([1, finals[0]]);
      const messages = unhandled.mock.calls.map((args) => args.map(String).join(' '));
      expect(messages.filter((m) => m.includes('Unhandled error event'))).toEqual([]);
    } finally {
      unhandled.mockRestore();
      await runs.close();
    }
  });
});
