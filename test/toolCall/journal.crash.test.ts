import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunState } from '../../src/agentCall/state/run-state';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { runWorker } from '../helpers/worker-process';

const lines = <T>(file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);

describe('tool journal across a crash', () => {
  let server: ScriptedServer;
  let dir: string;
  beforeEach(async () => {
    server = await startScriptedServer();
    dir = mkdtempSync(join(tmpdir(), 'agentcall-journal-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a run killed during a tool, resumed from its last checkpoint with the same journal, runs no journaled call twice', async () => {
    const secondTurn: ScriptedReply = {
      toolCalls: [
        { id: 'c2', name: 'charge' },
        { id: 'c3', name: 'charge' },
        { id: 's1', name: 'slow' },
      ],
    };
    const session = server.session([{ toolCalls: [{ id: 'c1', name: 'charge' }] }, secondTurn]);
    const config = {
      baseURL: session.baseURL,
      apiKey: session.apiKey,
      stateFile: join(dir, 'checkpoint.json'),
      executionsFile: join(dir, 'executions.jsonl'),
      journalFile: join(dir, 'journal.jsonl'),
    };

    const doomed = runWorker({ ...config, mode: 'crash' });
    await doomed.printed('started s1');
    doomed.child.kill('SIGKILL');
    const killed = await doomed.exited;
    expect(killed.signal).toBe('SIGKILL');

    const checkpoint = JSON.parse(readFileSync(config.stateFile, 'utf8')) as RunState;
    // The last checkpoint is the end of turn 1: turn 2's calls are not in it, but c2 and c3 are journaled.
    expect(checkpoint.turn).toBe(1);
    expect(checkpoint.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'charged c1' });
    expect(lines<{ key: string }>(config.journalFile).map((e) => e.key)).toEqual([
      'run-on-disk:c1',
      'run-on-disk:c2',
      'run-on-disk:c3',
    ]);

    // The model, asked again from the checkpoint, repeats turn 2 (same call ids), then answers.
    session.enqueue(secondTurn, { text: 'All charged.' });
    const recovered = await runWorker({ ...config, mode: 'recover' }).exited;
    expect(recovered.code).toBe(0);
    expect(JSON.parse(recovered.stdout.trim().split('\n').at(-1)!)).toMatchObject({ stopReason: 'completed' });

    const runs = lines<{ pid: number; id: string; key: string }>(config.executionsFile);
    const count = (id: string) => runs.filter((e) => e.id === id).length;
    expect([count('c1'), count('c2'), count('c3')]).toEqual([1, 1, 1]);
    // The call in flight at the kill was not journaled, so it ran again, with the same idempotency key.
    expect(runs.filter((e) => e.id === 's1').map((e) => [e.pid, e.key])).toEqual([
      [doomed.child.pid, 'run-on-disk:s1'],
      [expect.any(Number), 'run-on-disk:s1'],
    ]);
    expect(session.requests[3].body.messages.slice(-3)).toEqual([
      { role: 'tool', tool_call_id: 'c2', content: 'charged c2' },
      { role: 'tool', tool_call_id: 'c3', content: 'charged c3' },
      { role: 'tool', tool_call_id: 's1', content: 'slow s1' },
    ]);
    assertValidRequests(session.requests);
  }, 600_000);
});
