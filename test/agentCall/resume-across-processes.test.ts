import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunState } from '../../src/agentCall/state/run-state';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { runWorker } from '../helpers/worker-process';

const executions = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { pid: number; id: string; key: string });

describe('a run state written to disk resumes in another process', () => {
  let server: ScriptedServer;
  let dir: string;
  beforeEach(async () => {
    server = await startScriptedServer();
    dir = mkdtempSync(join(tmpdir(), 'agentcall-state-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pauses for approval in one process and finishes in a second one with the decision', async () => {
    const session = server.session([
      {
        toolCalls: [
          { id: 'look', name: 'lookup' },
          { id: 'pay', name: 'pay', arguments: { amount: 3 } },
        ],
      },
      { text: 'Paid.' },
    ]);
    const files = { stateFile: join(dir, 'state.json'), executionsFile: join(dir, 'executions.jsonl') };
    const base = { baseURL: session.baseURL, apiKey: session.apiKey, ...files };

    const firstWorker = runWorker({ ...base, mode: 'pause' });
    const first = await firstWorker.exited;
    expect(first.code).toBe(0);
    const paused = JSON.parse(readFileSync(files.stateFile, 'utf8')) as RunState;
    expect(JSON.parse(first.stdout.trim().split('\n').at(-1)!)).toMatchObject({ stopReason: 'interactive' });
    expect(paused.pending.map((p) => [p.kind, p.call.id])).toEqual([['approval', 'pay']]);
    expect(executions(files.executionsFile).map((e) => e.id)).toEqual(['look']);

    const second = await runWorker({ ...base, mode: 'resume', decisions: { pay: { approve: true } } }).exited;
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout.trim().split('\n').at(-1)!) as { pid: number; stopReason: string };
    expect(summary.stopReason).toBe('completed');
    expect(summary.pid).not.toBe(firstWorker.child.pid);

    const runs = executions(files.executionsFile);
    expect(runs.map((e) => [e.id, e.key])).toEqual([
      ['look', 'run-on-disk:look'],
      ['pay', 'run-on-disk:pay'],
    ]);
    expect(runs[1].pid).toBe(summary.pid);
    // The second process sent the first one's history, the approved call answered in place.
    expect(session.requests[1].body.messages).toEqual([
      ...paused.messages.slice(0, -1),
      { role: 'tool', tool_call_id: 'pay', content: 'paid with key run-on-disk:pay' },
    ]);
    const done = JSON.parse(readFileSync(files.stateFile, 'utf8')) as RunState;
    expect(done).toMatchObject({ runId: 'run-on-disk', turn: 2, pending: [] });
    expect(done.usage.inputTokens).toBeGreaterThan(paused.usage.inputTokens);
    assertValidRequests(session.requests);
  }, 600_000);
});
