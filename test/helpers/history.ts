import type { ChatCompletionMessageParam } from '../../src/llm/type';
import type { RecordedRequest } from '../../src/testing';

/** A message as it may arrive over the wire: the typed union plus whatever a broken client might send. */
type LooseMessage = ChatCompletionMessageParam | Record<string, unknown>;

/**
 * Throw (with the index and the reason) unless `messages` obeys OpenAI's chat-completions rules on tool calls:
 *
 * - every message has a known role; a `tool` message has a non-empty string `tool_call_id` and string content;
 * - an assistant message's `tool_calls` ids are non-empty strings, unique within the message, each call has a
 *   function name and string arguments;
 * - the messages right after such an assistant message are its tool messages: exactly one per id, in any order,
 *   before the next assistant/user/system message (OpenAI: "An assistant message with 'tool_calls' must be
 *   followed by tool messages responding to each 'tool_call_id'"; a second answer to one id is refused as
 *   "Duplicate value for 'tool_call_id'");
 * - a tool message never appears anywhere else (an orphan: "messages with role 'tool' must be a response to a
 *   preceding message with 'tool_calls'").
 */
export function assertValidHistory(messages: readonly LooseMessage[], label = 'history'): void {
  const fail = (index: number, reason: string): never => {
    throw new Error(`${label}: message #${index}: ${reason}\n${summarize(messages)}`);
  };
  if (!Array.isArray(messages)) throw new Error(`${label}: messages is not an array`);

  /** Ids of the open assistant turn still waiting for their tool message. */
  let pending: Set<string> | undefined;
  /** Ids of the open assistant turn already answered. */
  let answered: Set<string> | undefined;
  const closeTurn = (index: number) => {
    if (pending?.size) fail(index, `tool_call id(s) ${[...pending].join(', ')} got no tool message`);
    pending = undefined;
    answered = undefined;
  };

  messages.forEach((raw, index) => {
    const message = raw as Record<string, unknown>;
    const role = message?.role;
    if (role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || id === '') fail(index, `tool message without a tool_call_id`);
      if (typeof message.content !== 'string' && !Array.isArray(message.content))
        fail(index, `tool message content is ${typeof message.content}`);
      if (!pending && !answered)
        fail(index, `orphan tool message for ${String(id)}: no assistant tool_calls right before it`);
      if (answered!.has(id as string)) fail(index, `a second tool message for ${String(id)}`);
      if (!pending!.has(id as string))
        fail(index, `tool message for ${String(id)}, which the preceding assistant message did not call`);
      pending!.delete(id as string);
      answered!.add(id as string);
      return;
    }
    closeTurn(index);
    if (role !== 'assistant' && role !== 'user' && role !== 'system' && role !== 'developer')
      fail(index, `unknown role ${String(role)}`);
    if (role !== 'assistant' || message.tool_calls === undefined) return;
    const calls = message.tool_calls;
    if (!Array.isArray(calls)) fail(index, 'tool_calls is not an array');
    if ((calls as unknown[]).length === 0) fail(index, 'tool_calls is empty (the API refuses an empty array)');
    pending = new Set();
    answered = new Set();
    for (const call of calls as Record<string, any>[]) {
      const id = call?.id;
      if (typeof id !== 'string' || id === '') fail(index, `a tool call without an id`);
      if (pending.has(id)) fail(index, `tool_call id ${id} appears twice in one assistant message`);
      if (call.type !== 'function') fail(index, `tool call ${id} has type ${String(call.type)}`);
      if (typeof call.function?.name !== 'string' || call.function.name === '')
        fail(index, `tool call ${id} has no function name`);
      if (typeof call.function?.arguments !== 'string') fail(index, `tool call ${id} has non-string arguments`);
      pending.add(id);
    }
  });
  closeTurn(messages.length);
}

/**
 * Run {@link assertValidHistory} over the `messages` of every request a scripted server recorded, so a test
 * proves that each request the loop sent would have been accepted by the real API.
 */
export function assertValidRequests(requests: readonly RecordedRequest[]): void {
  if (requests.length === 0) throw new Error('assertValidRequests: no request was recorded');
  for (const request of requests) {
    assertValidHistory(request.body.messages, `request #${request.index}`);
  }
}

function summarize(messages: readonly LooseMessage[]): string {
  return messages
    .map((raw, i) => {
      const m = raw as Record<string, any>;
      if (m?.role === 'tool') return `  #${i} tool(${m.tool_call_id})`;
      if (m?.role === 'assistant' && m.tool_calls)
        return `  #${i} assistant[${(m.tool_calls as any[]).map((c) => c?.id).join(', ')}]`;
      return `  #${i} ${m?.role}`;
    })
    .join('\n');
}
