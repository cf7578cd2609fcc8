import type { DevtoolsRunStatus, ToolItem } from '../types';

/** Where a tool call stands, as its timeline entry says it. */
export type ToolState =
  { kind: 'waiting' } | { kind: 'running' } | { kind: 'not-run'; why: string } | { kind: 'done'; durationMs?: number };

/**
 * Where a call stands: waiting for a person (never "running"), running, never run (the run ended first, a call
 * that waited included), or done. A rejected call has no duration: it never ran, and the wait was the person's.
 */
export function toolState(item: ToolItem, waiting: boolean, runStatus: DevtoolsRunStatus): ToolState {
  if (waiting) return { kind: 'waiting' };
  if (item.response === undefined) {
    const running = runStatus === 'running' || runStatus === 'queued';
    if (running && !item.waited) return { kind: 'running' };
    if (item.waited)
      return {
        kind: 'not-run',
        why: running ? 'was waiting for approval; decided, not run yet' : `was waiting for approval; run ${runStatus}`,
      };
    return { kind: 'not-run', why: `did not finish; run ${runStatus}` };
  }
  if (item.outcome === 'rejected' || item.durationMs === undefined) return { kind: 'done' };
  return { kind: 'done', durationMs: item.durationMs };
}
