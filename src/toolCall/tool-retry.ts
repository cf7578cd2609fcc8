import { RunAbortedError } from '../errors/run-aborted.error';
import { toolErrorText } from '../text/model-text';
import type { AnyToolDefinition, RunToolResult, ToolRetry } from './type';

/** Outcomes another run may mend: the tool threw, or passed its timeout. A refusal or an abort is final. */
const RETRIED_OUTCOMES: ReadonlySet<string> = new Set(['error', 'timeout']);

/**
 * The retry policy a tool's calls run under: its `retry`, only when it is declared `idempotent: true` and allows more
 * than one run. `runAgentLoop` refuses the other combination up front; `runTool` alone simply runs such a tool once.
 *
 * @internal
 */
export function retryOf(tool: AnyToolDefinition): ToolRetry | undefined {
  const retry = tool.retry;
  return tool.idempotent === true && retry && retry.attempts > 1 ? retry : undefined;
}

/**
 * Run a call up to `retry.attempts` times: again after a failure `retry.retryOn` accepts, waiting `backoffMs`
 * (doubled each time) between runs. Each run is `attempt()`, which hands the tool the same context inputs (and so
 * the same `ctx.idempotencyKey`). The result is the last run's, with `attempts` and the errors of the runs before
 * it. An abort during a wait ends the call as aborted.
 *
 * @internal
 */
export async function runWithRetry(
  name: string,
  retry: ToolRetry,
  attempt: () => Promise<RunToolResult>,
  signal: AbortSignal | undefined,
): Promise<RunToolResult> {
  const errors: unknown[] = [];
  const limit = Math.floor(retry.attempts);
  for (let run = 1; ; run++) {
    const result = await attempt();
    if (run >= limit || !worthAnotherRun(result, retry)) return tally(result, run, errors);
    errors.push(result.error);
    const wait = backoff(retry.backoffMs, run);
    if (wait > 0) await sleep(wait, signal);
    if (signal?.aborted) {
      const aborted: RunToolResult = {
        response: toolErrorText(`${name} was aborted`),
        outcome: 'aborted',
        error: signal.reason ?? new RunAbortedError(),
      };
      return tally(aborted, run, errors);
    }
  }
}

function worthAnotherRun(result: RunToolResult, retry: ToolRetry): boolean {
  if (!RETRIED_OUTCOMES.has(result.outcome)) return false;
  if (typeof retry.retryOn !== 'function') return true;
  try {
    return retry.retryOn(result.error) === true;
  } catch {
    // A predicate that breaks cannot vouch for another run.
    return false;
  }
}

function tally(result: RunToolResult, runs: number, errors: unknown[]): RunToolResult {
  result.attempts = runs;
  if (errors.length > 0) result.attemptErrors = errors;
  return result;
}

/** The wait after run `run` (1-based): `backoffMs`, doubled for each run after the first, capped at a day. */
function backoff(backoffMs: number | undefined, run: number): number {
  if (typeof backoffMs !== 'number' || !(backoffMs > 0)) return 0;
  return Math.min(backoffMs * 2 ** (run - 1), MAX_WAIT_MS);
}

const MAX_WAIT_MS = 86_400_000;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
