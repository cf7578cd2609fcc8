import { RunAbortedError } from '../../errors/run-aborted.error';
import { journalKey, type ToolJournal } from '../../toolCall/journal';
import { normalizeToolResult } from '../../toolCall/normalize-tool-result';
import { toolErrorText } from '../../text/model-text';
import { withRepairNote } from '../../toolCall/repair-arguments';
import { findTool, runParsedTool, runTool } from '../../toolCall/run-tool';
import { runCapped, type JobCap } from '../../toolCall/tool-concurrency';
import type {
  AnyToolDefinition,
  RepairArguments,
  RunToolResult,
  ToolExecuteResult,
  ToolInputAnswer,
  ToolOutcome,
  ToolProgress,
} from '../../toolCall/type';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../../llm/type';
import type { ParsedCall } from './approvals';
import { RunEvents } from '../events/observers';
import { budgetSpentText } from '../budget/run-budget';
import type { AfterToolCallEvent } from '../events/event-types';

/** Arguments of {@link runToolCalls}. */
export type RunToolCallsProps = {
  calls: ChatCompletionMessageToolCall[];
  messages: ChatCompletionMessageParam[];
  tools: AnyToolDefinition[];
  /** The run's signal; absent when nothing can abort the run. */
  signal?: AbortSignal;
  concurrency: number;
  defaultTimeoutMs?: number;
  /** Where each call's start and end are reported (and inside whose scopes its work runs). */
  events?: RunEvents;
  /** The run's id: each call's idempotency key (and journal key) is `${runId}:${call.id}`. */
  runId?: string;
  /** Handed to every tool as `ctx.caller`. */
  caller?: unknown;
  /** Results of calls already executed are read from it instead of running them again; new ones are written. */
  journal?: ToolJournal;
  /** A journal that cannot be read or written: the run must end with this error once the turn is answered. */
  onJournalError?: (error: unknown) => void;
  /**
   * Asked right before a tool runs (the run's budget): false answers the call without running it. A call the journal
   * answers does not run, so it is not asked.
   */
  admit?: (call: ChatCompletionMessageToolCall) => boolean;
  /** With a `fallback` list: the model that made the calls, named in each `toolEnd` event. */
  model?: string;
  /** Calls already parsed (an approval's check, a resumed call's kept params): run with these, not parsed again. */
  parsed?: ReadonlyMap<ChatCompletionMessageToolCall, ParsedCall>;
  /** Handed to every tool as `ctx.nest` (the run they belong to). */
  nest?: object;
  /** Put before each call id in its journal and idempotency key: a nested run's path from the root (`call_1/`). */
  keyPrefix?: string;
  /** A call whose result only holds its place until a nested run resumes (a paused agent): never journaled. */
  held?: (call: ChatCompletionMessageToolCall) => boolean;
  /** The run's `repairArguments`, for tools without their own. */
  repairArguments?: RepairArguments;
  /** Calls run again with a person's answer to what they asked: their `ctx.answer` and `ctx.resumeData`. */
  answers?: ReadonlyMap<ChatCompletionMessageToolCall, CallAnswer>;
};

/** A person's answer to what a paused call asked, and what the call kept to go on: it runs again with both. */
export type CallAnswer = { answer: ToolInputAnswer; resumeData?: unknown };

/**
 * Run one turn's tool calls, at most `concurrency` at once (and at most a tool's own `concurrency` of its calls),
 * and return their results in call order.
 * A call not yet started when the run is aborted, or once an earlier call paused (`interactive`) or stopped the
 * run, is answered without running (`outcome: 'skipped'`), so every call still gets exactly one result; calls
 * already running finish. With a journal, a call recorded there is not executed again: its
 * recorded result (and outcome) is used. A call `admit` refuses (the run's budget is spent) is answered without
 * running too.
 */
export async function runToolCalls({
  calls,
  messages,
  tools,
  signal,
  concurrency,
  defaultTimeoutMs,
  events = NO_EVENTS,
  runId,
  caller,
  journal,
  onJournalError,
  admit,
  model,
  parsed,
  nest,
  keyPrefix = '',
  held,
  repairArguments,
  answers,
}: RunToolCallsProps): Promise<RunToolResult[]> {
  const run = (
    call: ChatCompletionMessageToolCall,
    idempotencyKey: string | undefined,
    onProgress: ((progress: ToolProgress) => void) | undefined,
  ): Promise<RunToolResult> => {
    const props = {
      call,
      messages,
      tools,
      signal,
      defaultTimeoutMs,
      idempotencyKey,
      caller,
      nest,
      onProgress,
      repairArguments,
      ...answers?.get(call),
    };
    const known = parsed?.get(call);
    const tool = known && findTool(tools, call.function.name);
    if (!known || !tool) return runTool(props);
    if ('outcome' in known) return Promise.resolve(known);
    const repaired = known.repairedArguments;
    const result = runParsedTool(tool, known.params, props);
    return repaired === undefined ? result : result.then((done) => withRepairNote(done, repaired));
  };
  const results = new Array<RunToolResult>(calls.length);
  // Set once a call pauses (`interactive`) or stops the run: calls not started by then never start.
  let halted = false;
  const execute = async (call: ChatCompletionMessageToolCall): Promise<RunToolResult> => {
    if (halted) {
      return {
        response: toolErrorText(`${call.function.name} was not run because an earlier call paused or stopped the run`),
        outcome: 'skipped',
      };
    }
    if (signal?.aborted) {
      return {
        response: toolErrorText(`${call.function.name} was not run because the run was aborted`),
        outcome: 'skipped',
        error: signal.reason ?? new RunAbortedError(),
      };
    }
    const idempotencyKey = runId === undefined ? undefined : journalKey(runId, keyPrefix + call.id);
    const onProgress = events.has('toolProgress')
      ? (progress: ToolProgress) => events.emit('toolProgress', { ...progress, call })
      : undefined;
    if (!journal || idempotencyKey === undefined) {
      if (admit && !admit(call)) return { response: budgetSpentText(call), outcome: 'skipped' };
      return run(call, idempotencyKey, onProgress);
    }
    let recorded: (ToolExecuteResult & { outcome?: unknown }) | undefined;
    try {
      recorded = await journal.get(idempotencyKey);
    } catch (error) {
      onJournalError?.(error);
      return {
        response: toolErrorText(`${call.function.name} was not run because its journal could not be read`),
        outcome: 'skipped',
        error,
      };
    }
    if (recorded !== undefined) {
      return { ...normalizeToolResult(recorded), outcome: isOutcome(recorded.outcome) ? recorded.outcome : 'ok' };
    }
    if (admit && !admit(call)) return { response: budgetSpentText(call), outcome: 'skipped' };
    const result = await run(call, idempotencyKey, onProgress);
    // A paused call has not finished: it runs again, with the person's answer, under the same key.
    if (held?.(call) || result.interactive !== undefined) return result;
    // The raw errors stay in this process: they are for logs, and rarely survive serialisation anyway.
    const { error: _raw, attemptErrors: _attempts, ...journaled } = result;
    try {
      await journal.set(idempotencyKey, journaled);
    } catch (error) {
      onJournalError?.(error);
    }
    return result;
  };
  const runOne = async (index: number) => {
    const call = calls[index];
    if (events.has('toolStart')) events.emit('toolStart', { call });
    // Timed only for observers: a run without them pays nothing for it.
    const reportEnd = events.has('toolEnd');
    const started = reportEnd ? performance.now() : 0;
    const result = await (events.scoped ? events.within({ kind: 'tool', call }, () => execute(call)) : execute(call));
    results[index] = result;
    if (result.interactive !== undefined || result.stop === true) halted = true;
    if (reportEnd) {
      const event: AfterToolCallEvent = {
        call,
        response: result.response,
        outcome: result.outcome,
        durationMs: result.outcome === 'skipped' ? 0 : performance.now() - started,
      };
      if (result.error !== undefined) event.error = result.error;
      if (result.attempts !== undefined) event.attempts = result.attempts;
      if (result.attemptErrors !== undefined) event.attemptErrors = result.attemptErrors;
      if (result.repairedArguments !== undefined) event.repairedArguments = result.repairedArguments;
      if (model !== undefined) event.model = model;
      events.emit('toolEnd', event);
    }
  };

  if (concurrency <= 1 || calls.length <= 1) {
    for (let i = 0; i < calls.length; i++) await runOne(i);
    return results;
  }
  const capOf = (index: number): JobCap | undefined => {
    const tool = findTool(tools, calls[index].function?.name);
    return tool?.concurrency === undefined ? undefined : { key: tool, limit: tool.concurrency };
  };
  await runCapped({ count: calls.length, concurrency, capOf, run: runOne });
  return results;
}

const NO_EVENTS = new RunEvents([], undefined);

/** The answer to a call past the turn's `maxToolCallsPerTurn`: it was not run, and why. */
export function overCapText(call: ChatCompletionMessageToolCall, callCount: number, cap: number): string {
  return toolErrorText(
    `${call.function.name} was not run: this turn made ${callCount} tool calls and at most ${cap} are run; call again with fewer`,
  );
}

/**
 * The answer to a call of a turn cut short (`finish_reason` `length` or `content_filter`): its arguments may be cut
 * too, so it was not run, and why.
 */
export function cutTurnText(call: ChatCompletionMessageToolCall, finishReason: 'length' | 'content_filter'): string {
  const why =
    finishReason === 'length'
      ? 'the response was cut at the output token limit (finish_reason length)'
      : 'the response was stopped by the content filter (finish_reason content_filter)';
  return toolErrorText(`${call.function.name} was not run: ${why}, so its arguments may be incomplete; call again`);
}

const OUTCOMES: ReadonlySet<string> = new Set<ToolOutcome>([
  'ok',
  'not_found',
  'invalid_arguments',
  'error',
  'timeout',
  'aborted',
  'rejected',
  'skipped',
]);

function isOutcome(value: unknown): value is ToolOutcome {
  return typeof value === 'string' && OUTCOMES.has(value);
}
