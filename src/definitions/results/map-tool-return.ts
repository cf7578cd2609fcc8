import type { ToolExecuteResult } from '../../toolCall/type';
import { stringifyForModel } from './stringify-for-model';
import { isToolResult } from './tool-result';

/**
 * Turn whatever a `@Tool` method returned (already awaited) into the loop's `ToolExecuteResult`:
 * a {@link toolResult} keeps its `stop` / `interactive` / `usages` / `assistantMessages`; any other value
 * becomes the `response` text.
 *
 * @example mapToolReturn({ temp: 21 }) // { response: '{"temp":21}' }
 *
 * @internal
 */
export function mapToolReturn(value: unknown): ToolExecuteResult {
  if (!isToolResult(value)) return { response: stringifyForModel(value) };
  const { response, stop, interactive, usages, assistantMessages } = value;
  return {
    response,
    ...(stop !== undefined && { stop }),
    ...(interactive !== undefined && { interactive }),
    ...(usages !== undefined && { usages }),
    ...(assistantMessages !== undefined && { assistantMessages }),
  };
}
