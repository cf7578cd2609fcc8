import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../../llm/type';
import type { ToolExecuteContext, ToolExecuteResult } from '../../toolCall/type';

/** The only run-state version this release reads and writes. */
export const RUN_STATE_VERSION = 1;

/** A tool call waiting for a person, as kept in {@link RunState.pending}. */
export type PendingCall =
  /** A call to a tool with `needsApproval`: its arguments were valid, it has not run. */
  (
    | { kind: 'approval'; call: ChatCompletionMessageToolCall; params: unknown }
    /** A call whose tool paused the run by returning `interactive`. */
    | {
        kind: 'interactive';
        call: ChatCompletionMessageToolCall;
        interactive: NonNullable<ToolExecuteResult['interactive']>;
        /** What the tool kept to go on when an `{ answer: { action } }` runs it again (its result's `resumeData`). */
        resumeData?: unknown;
      }
  ) & {
    /**
     * For a call an agent made (`defineAgent`): the call ids from the root to that agent (`['call_1']`). Its decision is
     * keyed `[...agentPath, call.id].join('/')`. Absent for the run's own calls.
     */
    agentPath?: string[];
  };

/**
 * A person's answer to one pending call, passed in `decisions` keyed by the call's id.
 *
 * - `{ approve: true }`: run the call (an `approval` entry).
 * - `{ approve: false, reason? }`: do not run it; the model reads `Tool call rejected by the user` (plus `: reason`).
 * - `{ answer }`: the call's result, as the tool would have returned it (an `interactive` entry; on an `approval`
 *   entry it stands in for running the tool).
 * - `{ answer: { action: 'accept' | 'decline' | 'cancel', content? } }`: what the person answered to what the tool
 *   asked: the call runs again with it as `ctx.answer` (an MCP server's `mcp_input` gets it as its input response).
 */
export type Decision =
  | { approve: true }
  | { approve: false; reason?: string }
  | { answer: ToolExecuteResult | NonNullable<ToolExecuteContext['answer']> };

/**
 * Everything needed to continue a run, in this process or another: plain JSON, so
 * `JSON.parse(JSON.stringify(state))` resumes identically. Its size is the history plus a fixed overhead.
 */
export type RunState = {
  /** The format version; other values are refused with a `RunStateVersionError`. */
  v: 1;
  /** The run's id; tool-journal keys and `idempotencyKey`s are `${runId}:${call.id}`. */
  runId: string;
  /** The request history so far (each pending call is answered by a placeholder tool message). */
  messages: ChatCompletionMessageParam[];
  /** Model requests so far, across resumes (counted against `maxRunAgentTimes`). */
  turn: number;
  /** Main model request tokens so far, across resumes. */
  usage: { inputTokens: number; outputTokens: number };
  /**
   * What the run's `budget` counts that `usage` does not hold, across resumes; present once a run had a budget. See
   * its fields below.
   */
  spent?: {
    /** Tool calls run (admitted past the budget's gate), whatever their outcome. */
    toolCalls: number;
    /** US dollars of the run's model requests, summaries included; counted while a `budget.costUsd` is set. */
    costUsd: number;
    /** Input tokens of the loop's summaries (compression), which `usage` leaves out. */
    summaryInputTokens?: number;
    /** Output tokens of the loop's summaries. */
    summaryOutputTokens?: number;
  };
  /** The anti-loop guard: the last tool-call signature and how many turns in a row repeated it. */
  loopGuard: { signature: string; repeats: number };
  /** Calls waiting for a person, in call order; empty unless the run stopped with `stopReason: 'interactive'`. */
  pending: PendingCall[];
  /**
   * The `caller` prop of the run, when one was given: handed to tools as `ctx.caller`, never sent to the model. A
   * resume uses it only when the state was verified with `stateSecret`; otherwise the resuming call's own `caller`.
   */
  caller?: unknown;
  /**
   * Final answers that failed the run's `output` schema so far, across resumes (counted against `outputRetries`);
   * absent while there are none.
   */
  outputFailures?: number;
  /** The W3C `traceparent` of the run's span, when it is traced: a resumed run continues the same trace. */
  traceparent?: string;
  /**
   * With `runAgentLoop({ fallback })`: the model the run is on, the one that answered its last request (`body.model`
   * until a request fell back).
   */
  model?: string;
  /**
   * With `runAgentLoop({ fallback })`: the index in `fallback` of the entry the run is on; absent while it is on
   * `body.model`. A resume with the same list goes on there, without trying the models before it.
   */
  fallbackIndex?: number;
  /**
   * The deferred tools the model has found (through `search_tools`, or by calling one by name), in the order
   * found: a resumed run keeps sending them. Names the resuming run has no deferred tool for are kept, not sent.
   */
  foundTools?: string[];
  /**
   * The states of agents (`defineAgent`) paused or under way, by the id of the call that started each: resuming this
   * run resumes each where it stopped. Checked in depth and signed with the rest.
   */
  children?: Record<string, RunState>;
  /**
   * With `runAgentLoop({ stateSecret })`: an HMAC-SHA256 (base64url) over every other field of the state, so a
   * resume with the same secret refuses a state that was edited or made elsewhere (`RunStateSignatureError`).
   */
  signature?: string;
};

/** What a run with a `budget` spent besides its main requests' tokens: {@link RunState}'s `spent`. */
export type RunSpent = NonNullable<RunState['spent']>;
