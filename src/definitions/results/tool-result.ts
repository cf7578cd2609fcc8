import type { ToolExecuteResult, ToolInteractive } from '../../toolCall/type';
import { stringifyForModel } from './stringify-for-model';

const TOOL_RESULT: unique symbol = Symbol.for('agentcall.tool-result');

/** Everything a tool can hand back besides its response text. */
export type ToolResultOptions = Omit<ToolExecuteResult, 'response'>;

/**
 * A `ToolExecuteResult` made by {@link toolResult}. The brand is what tells it apart from an ordinary
 * returned object that merely happens to have a `response` or `stop` field; a spread copy loses it.
 */
export type ToolResult = ToolExecuteResult & { readonly [TOOL_RESULT]: true };

/**
 * Return this from a `@Tool` method to control the loop as well as answer: `stop` ends the run after this
 * turn, `interactive` pauses it for the user, `usages` are billed, `assistantMessages` are handed to the
 * caller. `response` follows the same rules as a plain return value (strings as they are, objects as JSON).
 *
 * @example
 * @Tool({ description: 'Hand the conversation to a human' })
 * escalate(@Param('reason') reason: string) {
 *   return toolResult(`Escalated: ${reason}`, { stop: true });
 * }
 */
export function toolResult(response: unknown, options: ToolResultOptions = {}): ToolResult {
  const result = { ...options, response: stringifyForModel(response) };
  // Not enumerable: results compare, log and serialise as the plain ToolExecuteResult they are.
  return Object.defineProperty(result, TOOL_RESULT, { value: true }) as ToolResult;
}

/**
 * Answer and end the run after this turn's tool calls.
 *
 * @example return toolResult.stop('Order placed');
 */
toolResult.stop = (response: unknown): ToolResult => toolResult(response, { stop: true });

/**
 * Pause the run and ask the user; the loop returns `interactive` for the caller to persist and resume.
 *
 * @example return toolResult.interactive({ type: 'confirm', question: 'Pay 120 EUR?' });
 */
toolResult.interactive = (interactive: ToolInteractive, response: unknown = ''): ToolResult =>
  toolResult(response, { interactive });

/** Whether `value` was made by {@link toolResult}. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as { [TOOL_RESULT]?: unknown })[TOOL_RESULT] === true;
}
