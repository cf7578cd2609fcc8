import type { ChatCompletionMessageToolCall } from '../llm/type';
import { getErrText } from '../text/error-text';
import { modelSafeText, toolErrorText } from '../text/model-text';
import { parseDefaultArgs } from './parse-json-args';
import type { RunToolResult, ToolDefinition, ToolParseResult } from './type';

/**
 * Parse and validate a call's arguments as {@link runTool} does (the tool's `parseParams`, else the default caps):
 * the params, or the result that answers the call.
 *
 * @internal
 */
export function parseToolArgs(
  tool: ToolDefinition,
  call: ChatCompletionMessageToolCall,
): { params: unknown } | RunToolResult {
  const name = call.function.name;
  const rawArgs = call.function.arguments ?? '';
  let parsed: ToolParseResult<unknown>;
  try {
    parsed = tool.parseParams ? tool.parseParams(rawArgs) : parseDefaultArgs(rawArgs);
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
