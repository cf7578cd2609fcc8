import { useState } from 'preact/hooks';
import type { PendingView } from '../types';
import { postAction } from './client';
import { prettyJson } from './format';
import { html } from './html';

/**
 * Calls waiting for a person, each with approve, and reject with a reason; "Approve all" and "Reject all" while two
 * or more are undecided. The server gathers the decisions, and the run goes on once the last call has one.
 */
export function Pending(props: { runId: string; pending: PendingView[]; canDecide: boolean; onDone: () => void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  if (!props.pending.length) return null;
  const open = props.pending.filter((call) => call.decided === undefined);
  const all = (approve: boolean) => {
    setError(undefined);
    const decisions = Object.fromEntries(open.map((call) => [call.key, { approve }]));
    postAction(props.runId, 'decide', { decisions }).then(
      () => props.onDone(),
      (e: Error) => setError(e.message),
    );
  };
  return html`<section class="pending" data-testid="pending">
    <h2>Waiting for a decision</h2>
    ${
      props.canDecide &&
      open.length >= 2 &&
      html`<div class="actions">
        <button data-testid="approve-all" onClick=${() => all(true)}>Approve all</button>
        <button data-testid="reject-all" onClick=${() => all(false)}>Reject all</button>
      </div>`
    }
    ${error && html`<div class="error" data-testid="decide-error">${error}</div>`}
    ${props.pending.map(
      (call) =>
        html`<${PendingCall}
          key=${call.key}
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
    postAction(props.runId, 'decide', { decisions: { [call.key]: decision } }).then(
      () => props.onDone(),
      (e: Error) => {
        setBusy(false);
        setError(e.message);
      },
    );
  };
  return html`<div class="pending-call" data-testid="pending-call" data-call-id=${call.callId} data-key=${call.key}>
    <div>
      <code>${call.name}</code> (${call.kind})${
        call.agentPath?.length &&
        html` ·
          <span class="agent-label" data-testid="pending-agent"
            >in agent ${call.agent ? html`<code>${call.agent}</code> ` : ''}(${call.agentPath.join(' / ')})</span
          >`
      }${call.decided && html` · <span data-testid="decided">${call.decided}, waiting for the other decisions</span>`}
    </div>
    <pre>${prettyJson(call.arguments)}</pre>
    ${
      call.decided
        ? null
        : props.canDecide
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
