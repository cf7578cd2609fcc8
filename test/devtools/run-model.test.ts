import { RunModel } from '../../src/devtools/run-model';
import type { ToolItem } from '../../src/devtools';
import { toolState } from '../../src/devtools/ui/tool-state';

const page = (run: RunModel) =>
  run.page({ offset: 0, limit: 100, maxChars: 4000 }, { canDecide: true, canCancel: true });
const tool = (run: RunModel, callId: string) =>
  page(run).items.find((item): item is ToolItem => item.kind === 'tool' && item.callId === callId)!;

/** Two calls that wait for a person, their arguments not on the events (a source that sees only the state). */
function waitingOnTwo(t0: number): RunModel {
  const run = new RunModel('r', t0);
  run.addText('I will do both once you agree.', t0);
  run.addToolCall({ id: 'a', name: 'refund', arguments: '' }, t0 + 10);
  run.addToolCall({ id: 'b', name: 'close', arguments: '' }, t0 + 10);
  run.text = 'I will do both once you agree.';
  run.addStatus('waiting', { stopReason: 'interactive' }, t0 + 20);
  run.pending = [
    { callId: 'a', key: 'a', name: 'refund', kind: 'approval', arguments: '{"amount":42}' },
    { callId: 'b', key: 'b', name: 'close', kind: 'approval', arguments: '{"plan":"pro"}' },
  ];
  return run;
}

describe('what the page shows of calls that wait for a person', () => {
  it('shows their arguments from the pending list, and no answer while the run waits', () => {
    const run = waitingOnTwo(1_000);
    expect([tool(run, 'a').arguments.text, tool(run, 'b').arguments.text]).toEqual(['{"amount":42}', '{"plan":"pro"}']);
    expect(tool(run, 'a').waited).toBe(true);
    expect(page(run).text).toBeUndefined();
    expect(toolState(tool(run, 'a'), true, 'waiting')).toEqual({ kind: 'waiting' });
  });

  it('times a call that waited from the resume, and gives a rejected one its outcome and no duration', () => {
    const run = waitingOnTwo(1_000);
    Object.assign(run.decisions, { a: { approve: true }, b: { approve: false } });
    // The person took an hour; the tool then ran for 30 ms.
    const resumed = 1_000 + 3_600_000;
    run.addStatus('queued', {}, resumed);
    run.addStatus('running', {}, resumed + 5);
    run.endTool('a', { response: 'refunded' }, resumed + 30);
    run.endTool('b', { response: 'Tool call rejected by the user' }, resumed + 31);
    expect(tool(run, 'a').durationMs).toBe(30);
    expect(tool(run, 'b')).toMatchObject({ outcome: 'rejected' });
    expect(tool(run, 'b').durationMs).toBeUndefined();
    expect(toolState(tool(run, 'b'), false, 'running')).toEqual({ kind: 'done' });
    run.text = 'Done.';
    run.addStatus('completed', { stopReason: 'completed' }, resumed + 40);
    expect(page(run).text).toBe('Done.');
  });

  it('never says "running" of a call that waited, whatever the run became', () => {
    const run = waitingOnTwo(1_000);
    run.pending = [];
    run.addStatus('cancelled', { stopReason: 'aborted' }, 2_000);
    expect(toolState(tool(run, 'a'), false, 'cancelled')).toEqual({
      kind: 'not-run',
      why: 'was waiting for approval; run cancelled',
    });
    expect(toolState(tool(run, 'a'), false, 'running').kind).toBe('not-run');
    const plain = new RunModel('p', 0);
    plain.addToolCall({ id: 'x', name: 'lookup', arguments: '{}' }, 0);
    expect(toolState(tool(plain, 'x'), false, 'running')).toEqual({ kind: 'running' });
    expect(toolState(tool(plain, 'x'), false, 'failed').kind).toBe('not-run');
  });
});
