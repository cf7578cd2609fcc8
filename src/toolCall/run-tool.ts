import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../llm/type';
import { linkAbort } from '../utils/abort';
import { getErrText } from './error-text';
import { modelSafeText, toolErrorText, toolNotFoundText } from './model-text';
import { parseJsonArgs } from './parse-json-args';
import { normalizeToolResult } from './normalize-tool-result';
import type { ToolDefinition, ToolExecuteResult, ToolParseResult } from './type';

/** Arguments of {@link runTool}. */
export type RunToolProps = {
  call: ChatCompletionMessageToolCall;
  messages: ChatCompletionMessageParam[];
  tools: ToolDefinition[];
  /** The run's signal: aborting it aborts the tool's own signal and answers at once. */
  signal?: AbortSignal;
  /** Timeout for tools that set no `timeoutMs` of their own. */
  defaultTimeoutMs?: number;
  /** Handed to the tool as `ctx.idempotencyKey`. */
  idempotencyKey?: string;
  /** Who the call is made for; reaches the tool as `ctx.caller` and is never shown to the model. */
  caller?: unknown;
};

/**
 * Run one tool call: find → parse → execute. Every failure becomes a `{ response }` the model can read.
 *
 * - unknown name → `Call tool not found: <name>`
 * - `parseParams` failure → its `errorMessage`
 * - `execute` throws or rejects → `Tool error: <safe error text>`
 * - `timeoutMs` passes → `Tool error: <name> timed out after <ms> ms` (the tool's signal is aborted)
 * - the run is aborted → `Tool error: <name> was aborted` (without waiting for a tool that ignores its signal)
 *
 * It never throws, whatever the tool does.
 *
 * @example
 * const { response } = await runTool({ call, messages, tools: [weatherTool] });
 */
export async function runTool({
  call,
  messages,
  tools,
  signal,
  defaultTimeoutMs,
  idempotencyKey,
  caller,
}: RunToolProps): Promise<ToolExecuteResult> {
  const name = call?.function?.name;
  const tool = findTool(tools, name);
  if (!tool) return { response: toolNotFoundText(name) };

  const rawArgs = call.function.arguments ?? '';
  let parsed: ToolParseResult<unknown>;
  try {
    parsed = tool.parseParams ? tool.parseParams(rawArgs) : { success: true, data: parseJsonArgs(rawArgs) };
  } catch (error) {
    return { response: toolErrorText(getErrText(error)) };
  }
  // A hand-written parser may return anything; only a real success runs the tool, and the model always gets text.
  if (parsed?.success !== true) {
    return {
      response: modelSafeText(
        typeof parsed?.errorMessage === 'string' ? parsed.errorMessage : `Invalid arguments for ${name}`,
      ),
    };
  }

  const key = idempotencyKey === undefined ? undefined : { idempotencyKey };
  const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
  if (!timeoutMs && !signal)
    return execute(tool, { call, messages, params: parsed.data, signal: NEVER_ABORTED, caller, ...key });
  if (signal?.aborted) return { response: toolErrorText(`${name} was aborted`) };

  const { controller, dispose } = linkAbort(signal);
  let timer: NodeJS.Timeout | undefined;
  const interrupted = new Promise<ToolExecuteResult>((resolve) => {
    const onAbort = () => resolve({ response: toolErrorText(`${name} was aborted`) });
    controller.signal.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs && timeoutMs > 0) {
      timer = setTimeout(() => {
        controller.signal.removeEventListener('abort', onAbort);
        controller.abort(new Error(`${name} timed out after ${timeoutMs} ms`));
        resolve({ response: toolErrorText(`${name} timed out after ${timeoutMs} ms`) });
      }, timeoutMs);
    }
  });
  try {
    return await Promise.race([
      execute(tool, { call, messages, params: parsed.data, signal: controller.signal, caller, ...key }),
      interrupted,
    ]);
  } finally {
    clearTimeout(timer);
    dispose();
  }
}

const NEVER_ABORTED = new AbortController().signal;

async function execute(
  tool: ToolDefinition,
  ctx: Parameters<ToolDefinition['execute']>[0],
): Promise<ToolExecuteResult> {
  try {
    return normalizeToolResult(await tool.execute(ctx));
  } catch (error) {
    return { response: toolErrorText(getErrText(error)) };
  }
}

const indexes = new WeakMap<ToolDefinition[], { length: number; byName: Map<string, ToolDefinition> }>();

/** Look a tool up by name through a map built once per tools array (model output never indexes a plain object). */
export function findTool(tools: ToolDefinition[], name: string | undefined): ToolDefinition | undefined {
  if (typeof name !== 'string' || !Array.isArray(tools)) return undefined;
  let index = indexes.get(tools);
  if (!index || index.length !== tools.length) {
    const byName = new Map<string, ToolDefinition>();
    for (const tool of tools) {
      const toolName = tool?.schema?.function?.name;
      if (toolName !== undefined && !byName.has(toolName)) byName.set(toolName, tool);
    }
    index = { length: tools.length, byName };
    indexes.set(tools, index);
  }
  return index.byName.get(name);
}
