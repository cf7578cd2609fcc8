import type { AgentStopReason, ToolOutcome } from '../../src';

/** What the SSE endpoint streams, one JSON event per message. */
export type AgentEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; id: string; name: string }
  | { type: 'tool_args'; id: string; delta: string }
  | { type: 'tool_result'; id: string; name: string; response: string; outcome: ToolOutcome }
  | { type: 'interactive'; question: unknown }
  | { type: 'done'; stopReason: AgentStopReason; inputTokens: number; outputTokens: number; error?: string };
