import type {
  ChatCompletionMessageCustomToolCall,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from '../type';

/** The ids of every tool call in `messages`' assistant messages. */
export function callIdsIn(messages: readonly ChatCompletionMessageParam[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) ids.add(call.id);
  }
  return ids;
}

/**
 * Whether a non-streamed tool call is a function call: `type: 'function'`, or no `type` at all with a
 * `function` (what some OpenAI-compatible servers send).
 */
export function isFunctionCall(call: unknown): call is ChatCompletionMessageToolCall {
  if (typeof call !== 'object' || call === null) return false;
  const { type, function: fn } = call as { type?: unknown; function?: unknown };
  if (type !== 'function' && type !== undefined && type !== null) return false;
  return typeof fn === 'object' && fn !== null && typeof (fn as { name?: unknown }).name === 'string';
}

/** Whether a non-streamed tool call is a custom tool call: `type: 'custom'` with a named `custom` part. */
export function isCustomCall(call: unknown): call is ChatCompletionMessageCustomToolCall {
  if (typeof call !== 'object' || call === null) return false;
  const { type, custom } = call as { type?: unknown; custom?: unknown };
  return (
    type === 'custom' &&
    typeof custom === 'object' &&
    custom !== null &&
    typeof Reflect.get(custom, 'name') === 'string'
  );
}

/** How a call agentcall will not run is named in the error: its id and its type. */
export function describeDropped(call: unknown): { id?: string; type: string } {
  const { id, type } = (typeof call === 'object' && call !== null ? call : {}) as { id?: unknown; type?: unknown };
  let kind = 'function without a name';
  if (typeof type === 'string') kind = type;
  else if (type !== undefined && type !== null) kind = typeof type;
  return { ...(typeof id === 'string' ? { id } : {}), type: kind };
}

/**
 * A history's tool call as the loop reads it: a function call as it is, a custom call in the function shape with its
 * raw input as `function.arguments` (what `ctx.call` and a pending entry hold for it).
 */
export function asFunctionCall(
  call: ChatCompletionMessageToolCall | ChatCompletionMessageCustomToolCall,
): ChatCompletionMessageToolCall {
  if (call.type !== 'custom') return call;
  return { id: call.id, type: 'function', function: { name: call.custom.name, arguments: call.custom.input } };
}
