import type { RequestExchange, RunPage, RunSummary } from '../types';

// Every request rides on the page's cookie (set when the link was opened): no address the page uses holds the token.

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path);
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

/** The run list, and what keeps the source from reading runs. */
export function fetchRuns(): Promise<{ runs: RunSummary[]; problem: string | null }> {
  return getJson('/api/runs');
}

/** One page of a run's timeline. */
export function fetchRun(runId: string, offset: number, limit: number): Promise<RunPage> {
  return getJson(`/api/runs/${encodeURIComponent(runId)}?offset=${offset}&limit=${limit}`);
}

/** The whole text of one timeline entry. */
export async function fetchText(runId: string, index: number, field: string): Promise<string> {
  const res = await fetch(`/api/runs/${encodeURIComponent(runId)}/text?index=${index}&field=${field}`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

/** Request `index` of a run as sent, and its response. */
export function fetchExchange(runId: string, index: number): Promise<RequestExchange> {
  return getJson(`/api/runs/${encodeURIComponent(runId)}/exchange?index=${index}`);
}

/** POST an action of a run. */
export async function postAction(runId: string, action: 'decide' | 'cancel', body: unknown): Promise<void> {
  const res = await fetch(`/api/runs/${encodeURIComponent(runId)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(((await res.json()) as { error?: string }).error ?? `HTTP ${res.status}`);
}

/** The address of a run's exported test, for Jest or Vitest. */
export function exportUrl(runId: string, runner: 'jest' | 'vitest' = 'jest'): string {
  return `/api/runs/${encodeURIComponent(runId)}/export${runner === 'vitest' ? '?runner=vitest' : ''}`;
}

/** Server-sent changes: `onChange` with the runs that changed; `onState` when the stream drops or returns. */
export function watchChanges(
  onChange: (change: { runs: string[]; list: boolean }) => void,
  onState: (connected: boolean) => void,
): () => void {
  const source = new EventSource('/api/events');
  source.addEventListener('changed', (e) =>
    onChange(JSON.parse((e as MessageEvent<string>).data) as { runs: string[]; list: boolean }),
  );
  source.onopen = () => onState(true);
  source.onerror = () => onState(false);
  return () => source.close();
}
