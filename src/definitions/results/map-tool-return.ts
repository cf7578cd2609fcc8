import type { ToolExecuteResult } from '../../toolCall/type';
import { stringifyForModel } from './stringify-for-model';
import { isToolResult } from './tool-result';

/**
 * Turn whatever a `@Tool` method returned (already awaited) into the loop's `ToolExecuteResult`:
 * a {@link toolResult} keeps its `stop` / `interactive` / `usages` / `assistantMessages`; any other value
 * becomes the `response` text, as the model reads it. What `toolsFrom`'s `execute` does with a method's return
 * value, for integrations that call the method themselves and hand-written `execute` functions that want the
 * same text.
 *
 * @example mapToolReturn({ temp: 21 }) // { response: '{"temp":21}' }
 */
export function mapToolReturn(value: unknown): ToolExecuteResult {
  if (!isToolResult(value)) return { response: stringifyForModel(value) };
  const { response, stop, interactive, usages, assistantMessages, content, structuredContent } = value;
  return {
    response,
    ...(stop !== undefined && { stop }),
    ...(interactive !== undefined && { interactive }),
    ...(usages !== undefined && { usages }),
    ...(assistantMessages !== undefined && { assistantMessages }),
    ...(content !== undefined && { content }),
    ...(structuredContent !== undefined && { structuredContent }),
  };
}
