import type { ToolContentPart, ToolEmbeddedResource, ToolExecuteResult } from '../../toolCall/type';
import { describeContent } from './describe-content';
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
export function toolResult(response: unknown, options: Omit<ToolExecuteResult, 'response'> = {}): ToolResult {
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
toolResult.interactive = (
  interactive: NonNullable<ToolExecuteResult['interactive']>,
  response: unknown = '',
): ToolResult => toolResult(response, { interactive });

/**
 * Answer with content beyond text for MCP clients: text (strings) and parts made by `toolResult.image`,
 * `.audio`, `.resource` and `.resourceLink`, in order. The model reads the text and a line describing each
 * other part.
 *
 * @example return toolResult.content('The chart:', toolResult.image(png, 'image/png'));
 */
toolResult.content = (
  ...parts: readonly (string | NonNullable<ToolExecuteResult['content']>[number] | ToolResult)[]
): ToolResult => {
  const content = parts.flatMap((part): ToolContentPart[] =>
    typeof part === 'string' ? [{ type: 'text', text: part }] : isToolResult(part) ? (part.content ?? []) : [part],
  );
  return toolResult(describeContent(content), { content });
};

/**
 * An image for MCP clients: `data` as base64 or bytes.
 *
 * @example return toolResult.image(await page.screenshot(), 'image/png');
 */
toolResult.image = (data: string | Uint8Array, mimeType: string): ToolResult =>
  toolResult.content({ type: 'image', data: base64(data), mimeType });

/** Audio for MCP clients: `data` as base64 or bytes. */
toolResult.audio = (data: string | Uint8Array, mimeType: string): ToolResult =>
  toolResult.content({ type: 'audio', data: base64(data), mimeType });

/**
 * A resource embedded in the result: its `text`, or its bytes (`blob`, as base64 or bytes).
 *
 * @example return toolResult.resource({ uri: 'file:///notes.md', mimeType: 'text/markdown', text: notes });
 */
toolResult.resource = (
  resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string | Uint8Array }),
): ToolResult => {
  const embedded: ToolEmbeddedResource =
    'text' in resource
      ? { uri: resource.uri, ...(resource.mimeType && { mimeType: resource.mimeType }), text: resource.text }
      : { uri: resource.uri, ...(resource.mimeType && { mimeType: resource.mimeType }), blob: base64(resource.blob) };
  return toolResult.content({ type: 'resource', resource: embedded });
};

/** A link to a resource the client can read itself (`resources/read`). */
toolResult.resourceLink = (
  link: Omit<Extract<NonNullable<ToolExecuteResult['content']>[number], { type: 'resource_link' }>, 'type'>,
): ToolResult => toolResult.content({ type: 'resource_link', ...link });

function base64(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** Whether `value` was made by {@link toolResult}. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as { [TOOL_RESULT]?: unknown })[TOOL_RESULT] === true;
}
