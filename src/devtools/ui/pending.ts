import { useState } from 'preact/hooks';
import type { PendingView } from '../types';
import { postAction } from './client';
import { prettyJson } from './format';
import { html } from './html';

/** Calls waiting for a person, each with approve, and reject with a reason. */
export function Pending(props: { runId: string; pending: PendingView[]; canDecide: boolean; onDone: () => void }) {
  if (!props.pending.length) return null;
  return html`<section class="pending" data-testid="pending">
    <h2>Waiting for a decision</h2>
    ${props.pending.map(
      (call) =>
        html`<${PendingCall}
          key=${call.callId}
          runId=${props.runId}
          call=${call}
          canDecide=${props.canDecide}
          onDone=${props.onDone}
        />`,
    )}
  </section>`;
}

function PendingCall(props: { runId: string; call: PendingView; canDecide: boolean; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const { call } = props;
  const decide = (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    const decision = approve ? { approve: true } : reason ? { approve: false, reason } : { approve: false };
    postAction(props.runId, 'decide', { decisions: { [call.callId]: decision } }).then(
      () => props.onDone(),
      (e: Error) => {
        setBusy(false);
        setError(e.message);
      },
    );
  };
  return html`<div class="pending-call" data-testid="pending-call" data-call-id=${call.callId}>
    <div><code>${call.name}</code> (${call.kind})</div>
    <pre>${prettyJson(call.arguments)}</pre>
    ${
      props.canDecide
        ? html`<div class="actions">
            <button data-testid="approve" disabled=${busy} onClick=${() => decide(true)}>Approve</button>
            <input
              data-testid="reject-reason"
              placeholder="Reason (optional)"
              maxlength="2000"
              value=${reason}
              onInput=${(e: Event) => setReason((e.target as HTMLInputElement).value)}
            />
            <button data-testid="reject" disabled=${busy} onClick=${() => decide(false)}>Reject</button>
          </div>`
        : html`<p class="note">This source cannot decide here (for a queue, give the runs their secret).</p>`
    }
    ${error && html`<div class="error" data-testid="decide-error">${error}</div>`}
  </div>`;
}
