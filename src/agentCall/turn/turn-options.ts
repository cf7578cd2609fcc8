import type { LLMClient } from '../../llm/client';
import type { CreateLLMResponseProps } from '../../llm/request';
import type { LLMRequestBody } from '../../llm/response/response-types';
import type { Wire } from '../../llm/wires/wire';
import type { ToolJournal } from '../../toolCall/journal';
import type { AnyToolDefinition, ToolDefinition } from '../../toolCall/type';

/** The run's options for its model requests: what they send, to whom, and how much of a response they read. */
export type ModelRequestOptions = {
  /** The chat-completions body (model, messages, temperature, …) without `tools`: those come from `tools`. */
  body: Omit<LLMRequestBody, 'tools'>;
  /** Every tool the model may call; the model sees `tools.map(t => t.schema)`. */
  tools: AnyToolDefinition[];
  /**
   * An openai SDK client, `new OpenAI(...)` from openai 6 or 7 (any OpenAI-compatible server); without it one is
   * built from `userKey` or the environment.
   */
  client?: LLMClient;
  userKey?: CreateLLMResponseProps['userKey'];
  /** Per-request SDK options (timeout in ms, headers). */
  requestOptions?: { timeout?: number; headers?: Record<string, string> };
  /**
   * Most bytes one model response may have (default 16 MiB), counted on what it accumulates (answer text, reasoning,
   * tool calls), not on the SSE envelopes around it; past it the request ends with `ResponseTooLargeError`.
   */
  maxResponseBytes?: number;
  /** Longest SSE line one streamed model response may send (default 2 MiB). */
  maxSseLineBytes?: number;
  /**
   * How streamed model responses are parsed: `'lean'` (default) reads the body with a small SSE parser and
   * `JSON.parse` after the SDK has sent the request (its retries, errors, auth and headers still apply); `'sdk'`
   * uses the openai SDK's own stream iterator. Both give the same responses and hooks.
   */
  streamParser?: 'lean' | 'sdk';
  /**
   * Which API this call's model requests (summaries included) go over: `'chat'` (Chat Completions), `'responses'`
   * (the Responses API), or `'auto'` (default): `'responses'` when the client's `baseURL` is OpenAI's own API
   * (`https://api.openai.com/...`), `'chat'` otherwise. The history, hooks, ids, stop reasons and `RunState` are the
   * same on both; the Responses wire keeps the model's reasoning items on its assistant messages (`reasoning_items`)
   * and sends them back on every later request. Each call chooses its own: a run resumed on the chat wire drops them.
   */
  wire?: Wire;
};

/** The run's options for its tool calls: how many run at once, how long each may take, how their arguments are repaired, where their results are journaled. */
export type ToolCallOptions = {
  /** How many of one turn's tool calls run at once (default 1: in order); messages stay in call order. */
  toolConcurrency?: number;
  /**
   * Correct tool arguments that failed to parse or validate, for tools without a `repairArguments` of their own:
   * called once per such call; what it returns is validated again before the tool runs.
   */
  repairArguments?: ToolDefinition['repairArguments'];
  /**
   * Most tool calls of one turn that are run (default `DEFAULT_MAX_TOOL_CALLS_PER_TURN`, 64); each call past it gets
   * a tool message saying it was not run, so a model cannot fire a side-effecting tool thousands of times at once.
   */
  maxToolCallsPerTurn?: number;
  /** Timeout for tools that set no `timeoutMs` of their own. */
  toolTimeoutMs?: number;
  /** Record each executed call's result under `${runId}:${call.id}`; a recorded call is never executed again. */
  journal?: ToolJournal;
};

/** How long the run may go on: its turns, its deadline, and what stops it from outside. */
export type TurnLimits = {
  /** Most model requests in one run (default 20). */
  maxRunAgentTimes?: number;
  /** After this many consecutive tool-only turns the next request sends `tool_choice: 'none'` (default 5; 0 = never). */
  maxConsecutiveToolTurns?: number;
  /** Polled during the run: return true to stop it. */
  isAborted?: () => boolean | undefined | null;
  /** Aborting it stops the run, cancels the current request and aborts running tools' signals. */
  abortSignal?: AbortSignal;
  /** Stop the whole run after this many milliseconds (`stopReason: 'timeout'`). */
  timeoutMs?: number;
};
