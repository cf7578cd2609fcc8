import type { ChatCompletionMessageFunctionToolCall as ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { ToolOutcome } from '../index';

/** Where a queued run stands. */
export type RunStatus = 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/** One event of a run, as read from its stream; `id` is the stream entry id to resume after. */
export type RunEvent = (
  | { id: string; type: 'text'; text: string }
  | { id: string; type: 'reasoning'; text: string }
  | { id: string; type: 'tool_call'; call: ChatCompletionMessageToolCall }
  | { id: string; type: 'tool_result'; callId: string; name: string; response: string; outcome: ToolOutcome }
  /** What a running tool reported with `ctx.progress` (of a burst between two writes, the latest). */
  | {
      id: string;
      type: 'tool_progress';
      callId: string;
      name: string;
      progress: number;
      total?: number;
      message?: string;
    }
  | { id: string; type: 'status'; status: RunStatus; stopReason?: string; attempt?: number }
) & {
  /**
   * On an event of an agent's run (`defineAgent`): the call ids from the root run to that agent, as in
   * `state.pending`; a nested call's decision key is `[...agentPath, callId].join('/')`. Absent for the run's own.
   */
  agentPath?: string[];
};

/** An event before it has a stream id. */
export type RunEventData = RunEvent extends infer E ? (E extends { id: string } ? Omit<E, 'id'> : never) : never;
