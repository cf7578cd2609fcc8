import type {
  ChatCompletionCustomTool,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from '../llm/type';
import { RunAbortedError } from '../errors/run-aborted.error';
import { ToolCallRejectedError } from '../errors/tool-call-rejected.error';
import { ToolTimeoutError } from '../errors/tool-timeout.error';
import { LazyAbort } from '../utils/lazy-abort';
import { getErrText } from '../text/error-text';
import { toolErrorText, toolNotFoundText } from '../text/model-text';
import { normalizeToolResult } from './normalize-tool-result';
import { parseToolArgs } from './parse-tool-args';
import { readCallArgs, withRepairNote } from './repair-arguments';
import { retryOf, runWithRetry } from './tool-retry';
import type {
  AnyToolDefinition,
  RunToolResult,
  ToolDefinition,
  ToolExecuteContext,
  ToolInputAnswer,
  ToolLogLevel,
  ToolProgress,
} from './type';
import { toolNameOf } from '../llm/tool-schema';

export { parseToolArgs };

/** Arguments of {@link runTool}. */
export type RunToolProps = {
  call: ChatCompletionMessageToolCall;
  messages: ChatCompletionMessageParam[];
  /** The tools the call may name: function tools and custom tools. */
  // `any` as in `ToolDefinition` itself: tools with different params (and custom tools) must all fit one list.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tools: ToolDefinition<any, ChatCompletionTool | ChatCompletionCustomTool>[];
  /** The run's signal: aborting it aborts the tool's own signal and answers at once. */
  signal?: AbortSignal;
  /** Timeout for tools that set no `timeoutMs` of their own. */
  defaultTimeoutMs?: number;
  /** Handed to the tool as `ctx.idempotencyKey`. */
  idempotencyKey?: string;
  /** Who the call is made for; reaches the tool as `ctx.caller` and is never shown to the model. */
  caller?: unknown;
  /** Handed to the tool as `ctx.nest`: the run it belongs to, for a tool that starts a nested run. */
  nest?: object;
  /** Hears the tool's `ctx.progress(…)` reports. */
  onProgress?: ToolExecuteContext['progress'];
  /** Hears the tool's `ctx.log(level, data)`. */
  onLog?: ToolExecuteContext['log'];
  /** Corrects arguments that failed to parse or validate, for tools without a `repairArguments` of their own. */
  repairArguments?: ToolDefinition['repairArguments'];
  /** Handed to the tool as `ctx.answer`: what a person answered to what it asked on an earlier run. */
  answer?: ToolExecuteContext['answer'];
  /** Handed to the tool as `ctx.resumeData`: what it kept when it asked. */
  resumeData?: unknown;
};

/**
 * Run one tool call: find → parse → execute. Every failure becomes a `{ response }` the model can read, and
 * `outcome` says, as data, how the call ended (with the raw `error` behind a failure, for logs):
 *
 * - unknown name → `Call tool not found: <name>`, then the closest few tool names, if any (`not_found`)
 * - `parseParams` failure → its `errorMessage` (`invalid_arguments`); without `parseParams`, arguments past the
 *   size, depth or key cap → `Invalid arguments: <which cap>` (`invalid_arguments`)
 * - `execute` throws or rejects → `Tool error: <safe error text>` (`error`)
 * - `execute` throws a {@link ToolCallRejectedError} → its message, without the prefix (`rejected`)
 * - `timeoutMs` passes → `Tool error: <name> timed out after <ms> ms` (`timeout`; the tool's signal is aborted)
 * - the run is aborted → `Tool error: <name> was aborted` (`aborted`; without waiting for a tool that ignores its signal)
 *
 * A tool declared `idempotent: true` with a `retry` runs again after an error or a timeout, up to `retry.attempts`
 * runs in all (`attempts` and `attemptErrors` say what happened). Arguments that fail to parse or validate go once
 * to the tool's `repairArguments` (else `props.repairArguments`); corrected text that validates runs the tool, and
 * the response says the arguments were repaired.
 *
 * It never throws, whatever the tool does.
 *
 * @example
 * const { response, outcome, error } = await runTool({ call, messages, tools: [weatherTool] });
 * if (outcome !== 'ok') logger.warn({ outcome, error }, 'tool call failed');
 */
export async function runTool(props: RunToolProps): Promise<RunToolResult> {
  const { call, tools } = props;
  const tool = findTool(tools, call?.function?.name);
  if (!tool) return { response: toolNotFoundText(call?.function?.name, toolNames(tools)), outcome: 'not_found' };
  // Without a repair at hand the parse stays synchronous: most calls pay nothing for the feature.
  if (tool.repairArguments === undefined && props.repairArguments === undefined) {
    const parsed = parseToolArgs(tool, call);
    return 'outcome' in parsed ? parsed : runParsedTool(tool, parsed.params, props);
  }
  const read = await readCallArgs(tool, call, props.repairArguments);
  if ('outcome' in read) return read;
  const result = await runParsedTool(tool, read.params, props);
  return read.repairedArguments === undefined ? result : withRepairNote(result, read.repairedArguments);
}

/**
 * The rest of {@link runTool} for a call already found and parsed: execute with `params`, under the timeout and the
 * run's signal, again after a failure when the tool's `retry` allows it.
 *
 * @internal
 */
export function runParsedTool(
  tool: AnyToolDefinition,
  params: unknown,
  props: Omit<RunToolProps, 'tools'>,
): Promise<RunToolResult> {
  const retry = retryOf(tool);
  if (!retry) return runAttempt(tool, params, props);
  return runWithRetry(props.call.function.name, retry, () => runAttempt(tool, params, props), props.signal);
}

/** One run of a parsed call: execute with `params`, under the timeout and the run's signal. */
async function runAttempt(
  tool: AnyToolDefinition,
  params: unknown,
  {
    call,
    messages,
    signal,
    defaultTimeoutMs,
    idempotencyKey,
    caller,
    nest,
    onProgress,
    onLog,
    answer,
    resumeData,
  }: Omit<RunToolProps, 'tools'>,
): Promise<RunToolResult> {
  const name = call.function.name;
  const key = {
    idempotencyKey,
    progress: onProgress ? listened(onProgress) : NOOP,
    log: onLog ? listened(onLog) : NOOP,
    answer,
    resumeData,
  };
  const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
  // The tool's own signal, so listeners it (or a client it hands the signal to) adds never pile up on a signal
  // that outlives the call; made only if the tool reads it.
  const own = new LazyAbort();
  if (!timeoutMs && !signal) return execute(tool, lazySignalContext(call, messages, params, own, caller, key, nest));
  if (signal?.aborted) return aborted(name, signal);

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<RunToolResult>((resolve) => {
    if (signal) {
      onAbort = () => {
        own.abort(signal.reason);
        resolve(aborted(name, signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }
    if (timeoutMs && timeoutMs > 0) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(name, timeoutMs);
        own.abort(error);
        resolve({ response: toolErrorText(error.message), outcome: 'timeout', error });
      }, timeoutMs);
    }
  });
  try {
    return await Promise.race([
      execute(tool, lazySignalContext(call, messages, params, own, caller, key, nest)),
      interrupted,
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** What a call's context gets besides the call itself. */
type CallExtras = {
  idempotencyKey: string | undefined;
  progress: (progress: ToolProgress) => void;
  log: (level: ToolLogLevel, data: unknown) => void;
  answer: ToolInputAnswer | undefined;
  resumeData: unknown;
};

/** What `ctx.progress` and `ctx.log` are where nobody listens: one function for every call. */
const NOOP = (): void => undefined;

/** A listener a tool cannot break: whatever it throws stays out of the tool. */
function listened<A extends unknown[]>(listener: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      listener(...args);
    } catch {
      // A listener's failure is its own: the tool's work goes on.
    }
  };
}

const owners = new WeakMap<object, LazyAbort>();
// One getter for every context: a getter written in an object literal is a new function per call, and gives
// each context a hidden class of its own, which costs more than the signal it saves.
const SIGNAL: PropertyDescriptor = {
  get(this: object) {
    return owners.get(this)?.signal;
  },
  enumerable: true,
  configurable: true,
};

/** The context a tool runs with, its `signal` an own property made when first read. */
function lazySignalContext(
  call: ChatCompletionMessageToolCall,
  messages: ChatCompletionMessageParam[],
  params: unknown,
  own: LazyAbort,
  caller: unknown,
  key: CallExtras,
  nest: object | undefined,
): Parameters<ToolDefinition['execute']>[0] {
  const ctx = { call, messages, params } as Parameters<ToolDefinition['execute']>[0];
  Object.defineProperty(ctx, 'signal', SIGNAL);
  ctx.caller = caller;
  if (key.idempotencyKey !== undefined) ctx.idempotencyKey = key.idempotencyKey;
  ctx.progress = key.progress;
  ctx.log = key.log;
  if (key.answer !== undefined) ctx.answer = key.answer;
  if (key.resumeData !== undefined) ctx.resumeData = key.resumeData;
  if (nest) ctx.nest = nest;
  owners.set(ctx, own);
  return ctx;
}

function aborted(name: string, signal: AbortSignal): RunToolResult {
  return {
    response: toolErrorText(`${name} was aborted`),
    outcome: 'aborted',
    error: signal.reason ?? new RunAbortedError(),
  };
}

async function execute(tool: AnyToolDefinition, ctx: Parameters<ToolDefinition['execute']>[0]): Promise<RunToolResult> {
  try {
    // Added to the fresh copy, not spread into another: a spread of it costs more than the rest of this function.
    const result: RunToolResult = Object.assign(normalizeToolResult(await tool.execute(ctx)), {
      outcome: 'ok' as const,
    });
    return result;
  } catch (error) {
    // A refusal (a guard said no) is not a failure of the tool: the model reads the reason as it is.
    if (ToolCallRejectedError.isInstance(error)) {
      return { response: getErrText(error, 'Tool call not allowed'), outcome: 'rejected', error };
    }
    return { response: toolErrorText(getErrText(error)), outcome: 'error', error };
  }
}

/** The names of the tools offered, as the array holds them now (read after {@link findTool} missed). */
function toolNames(tools: AnyToolDefinition[]): string[] {
  return Array.isArray(tools) ? [...buildIndex(tools).byName.keys()] : [];
}

type ToolIndex = { length: number; byName: Map<string, number>; duplicate?: string };

const indexes = new WeakMap<AnyToolDefinition[], ToolIndex>();

/**
 * Look a tool up by name through a map built once per tools array (model output never indexes a plain object).
 * The map holds positions, and a hit is checked against the array as it is now, so a tool replaced or renamed
 * in place is found as it is; a miss rebuilds the map once before it answers.
 */
export function findTool(tools: AnyToolDefinition[], name: string | undefined): AnyToolDefinition | undefined {
  if (typeof name !== 'string' || !Array.isArray(tools)) return undefined;
  return lookUp(tools, toolIndex(tools), name) ?? lookUp(tools, buildIndex(tools), name);
}

/** The first name two of `tools` share, found while indexing them (`runAgentLoop` refuses such a set). */
export function duplicateToolName(tools: AnyToolDefinition[]): string | undefined {
  return Array.isArray(tools) ? buildIndex(tools).duplicate : undefined;
}

function lookUp(tools: AnyToolDefinition[], index: ToolIndex, name: string): AnyToolDefinition | undefined {
  const position = index.byName.get(name);
  if (position === undefined) return undefined;
  const tool = tools[position];
  return tool?.schema && toolNameOf(tool.schema) === name ? tool : undefined;
}

function toolIndex(tools: AnyToolDefinition[]): ToolIndex {
  const index = indexes.get(tools);
  return index && index.length === tools.length ? index : buildIndex(tools);
}

function buildIndex(tools: AnyToolDefinition[]): ToolIndex {
  const byName = new Map<string, number>();
  let duplicate: string | undefined;
  for (let i = 0; i < tools.length; i++) {
    const schema = tools[i]?.schema;
    const toolName = schema && toolNameOf(schema);
    if (toolName === undefined) continue;
    if (!byName.has(toolName)) byName.set(toolName, i);
    else duplicate ??= toolName;
  }
  const index = { length: tools.length, byName, duplicate };
  indexes.set(tools, index);
  return index;
}
