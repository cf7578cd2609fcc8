import type { ChatCompletionMessageToolCall } from '../llm/type';
import { getErrText } from '../text/error-text';
import { invalidArgumentsText, modelSafeText, toolErrorText } from '../text/model-text';
import { DEFAULT_MAX_ARGS_LENGTH } from '../constants';
import { isCustomTool } from '../llm/tool-schema';
import { parseDefaultArgs } from './parse-json-args';
import type { AnyToolDefinition, RunToolResult, ToolParseResult } from './type';

/**
 * Parse and validate a call's arguments as {@link runTool} does (the tool's `parseParams`, else the default caps):
 * the params, or the result that answers the call.
 *
 * @internal
 */
export function parseToolArgs(
  tool: AnyToolDefinition,
  call: ChatCompletionMessageToolCall,
): { params: unknown } | RunToolResult {
  const name = call.function.name;
  const rawArgs = call.function.arguments ?? '';
  let parsed: ToolParseResult<unknown>;
  try {
    if (tool.parseParams) parsed = tool.parseParams(rawArgs);
    else parsed = isCustomTool(tool.schema) ? readCustomInput(rawArgs) : parseDefaultArgs(rawArgs);
  } catch (error) {
    return { response: toolErrorText(getErrText(error)), outcome: 'invalid_arguments', error };
  }
  // A hand-written parser may return anything; only a real success runs the tool, and the model always gets text.
  if (parsed?.success !== true) {
    const message = typeof parsed?.errorMessage === 'string' ? parsed.errorMessage : undefined;
    return {
      response: modelSafeText(message ?? `Invalid arguments for ${name}`),
      outcome: 'invalid_arguments',
      error: message ?? parsed,
    };
  }
  return { params: parsed.data };
}

/**
 * A custom tool's input without a `parseParams`: the text as the model wrote it, refused past the arguments' default
 * size cap, as a function tool's arguments are.
 */
function readCustomInput(raw: string): ToolParseResult<unknown> {
  const text = typeof raw === 'string' ? raw : '';
  if (text.length > DEFAULT_MAX_ARGS_LENGTH)
    return {
      success: false,
      errorMessage: invalidArgumentsText(`${text.length} characters exceeds the limit of ${DEFAULT_MAX_ARGS_LENGTH}`),
    };
  return { success: true, data: text };
}
