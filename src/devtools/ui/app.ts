import { useEffect, useState } from 'preact/hooks';
import type { RunSummary } from '../types';
import { fetchRuns, watchChanges } from './client';
import { html } from './html';
import { RunList } from './run-list';
import { RunView } from './run-view';

function currentRun(): string | undefined {
  const match = /^#\/run\/(.+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : undefined;
}

/** The page: a banner for trouble, then the run list or one run. */
export function App() {
  const [runId, setRunId] = useState(currentRun());
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [connected, setConnected] = useState(true);
  const [listVersion, setListVersion] = useState(0);
  const [runVersion, setRunVersion] = useState(0);

  useEffect(() => {
    const onHash = () => setRunId(currentRun());
    addEventListener('hashchange', onHash);
    const stop = watchChanges(
      (change) => {
        if (change.list) setListVersion((n) => n + 1);
        const open = currentRun();
        if (open && change.runs.includes(open)) setRunVersion((n) => n + 1);
      },
      (up) => {
        setConnected(up);
        if (up) {
          setListVersion((n) => n + 1);
          setRunVersion((n) => n + 1);
        }
      },
    );
    return () => {
      removeEventListener('hashchange', onHash);
      stop();
    };
  }, []);

  useEffect(() => {
    fetchRuns().then(
      (body) => {
        setRuns(body.runs);
        setProblem(body.problem ?? undefined);
      },
      (e: Error) => setProblem(e.message),
    );
  }, [listVersion]);

  return html`<main>
    ${!connected && html`<div class="banner" data-testid="disconnected">The devtools server does not answer; reconnecting…</div>`}
    ${problem && html`<div class="banner" data-testid="problem">${problem}</div>`}
    ${
      runId
        ? html`<${RunView} runId=${runId} version=${runVersion + listVersion} />`
        : html`<h1>Runs</h1>
            <${RunList} runs=${runs} />`
    }
  </main>`;
}
