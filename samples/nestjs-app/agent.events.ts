import type { AgentStopReason, PendingCall, ToolOutcome } from '../../src';

/**
 * A call waiting for a person, as the HTTP API shows it. A sub-agent's call (one the `support` agent's `cashier`
 * made) has the `agentPath` of the agent that made it, and its decision is keyed `[...agentPath, id].join('/')`.
 */
export type PendingCallView = {
  id: string;
  kind: PendingCall['kind'];
  name: string;
  arguments: string;
  agentPath?: string[];
};

/** Where an event comes from: absent for the app's own run, the call ids from it to the agent for a sub-agent's. */
type Nested = { agentPath?: string[] };

/** What `POST /agent/runs/:runId/decisions` answers once the resumed run stops again. */
export type RunOutcome = {
  runId: string;
  stopReason: AgentStopReason;
  /** The last assistant text of the run. */
  text: string;
  /** Calls still waiting for a decision (when `stopReason` is `interactive`). */
  pending: PendingCallView[];
  error?: string;
};

/** What the SSE endpoint streams, one JSON event per message. */
export type AgentEvent =
  | ({ type: 'text'; text: string } & Nested)
  | ({ type: 'reasoning'; text: string } & Nested)
  | ({ type: 'tool_call'; id: string; name: string } & Nested)
  | ({ type: 'tool_args'; id: string; delta: string } & Nested)
  | ({ type: 'tool_result'; id: string; name: string; response: string; outcome: ToolOutcome } & Nested)
  | { type: 'interactive'; question: unknown }
  | {
      type: 'done';
      /** The run's id: `GET /agent/runs/:runId/pending` and `POST /agent/runs/:runId/decisions` use it. */
      runId: string;
      stopReason: AgentStopReason;
      inputTokens: number;
      outputTokens: number;
      /** Calls waiting for a person's decision (when `stopReason` is `interactive`). */
      pending?: PendingCallView[];
      error?: string;
    };
