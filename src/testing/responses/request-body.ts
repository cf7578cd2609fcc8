import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { inputToMessages, type ItemResolver } from './input-messages';
import { isObject, type Fields } from './fields';

/**
 * A Responses request body in chat-completions shape: what {@link RecordedRequest.body} holds for a request to
 * `POST /v1/responses`, so turn functions and assertions written for one wire read the other.
 *
 * The inverse of the Responses mapping: `input` and `instructions` become `messages`, function and custom tools
 * and a function or custom `tool_choice` take their chat shape, `max_output_tokens` becomes `max_tokens`, `text.format`
 * `response_format` and `reasoning.effort` `reasoning_effort`. Every other field is kept as received (what is
 * left of `text` and `reasoning` included), so nothing the client sent is hidden.
 *
 * @see RecordedRequest
 */
export function toChatBody(raw: Fields, resolve?: ItemResolver): ChatCompletionCreateParams {
  const { input, instructions, tools, tool_choice, max_output_tokens, text, reasoning, ...rest } = raw;
  const body: Fields = { ...rest, messages: inputToMessages(input, instructions, resolve) };
  if (tools !== undefined) body.tools = Array.isArray(tools) ? tools.map(chatTool) : tools;
  if (tool_choice !== undefined) body.tool_choice = chatToolChoice(tool_choice);
  if (max_output_tokens !== undefined) body.max_tokens = max_output_tokens;
  if (text !== undefined)
    splitOff(body, 'text', text, 'format', (format) => (body.response_format = chatFormat(format)));
  if (reasoning !== undefined) {
    splitOff(body, 'reasoning', reasoning, 'effort', (effort) => (body.reasoning_effort = effort));
  }
  return body as unknown as ChatCompletionCreateParams;
}

/** Move `object[key]` out through `take`; keep what remains of `object` under `name`, if anything does. */
function splitOff(body: Fields, name: string, value: unknown, key: string, take: (part: unknown) => void): void {
  if (!isObject(value) || !(key in value)) {
    body[name] = value;
    return;
  }
  const { [key]: part, ...remaining } = value;
  take(part);
  if (Object.keys(remaining).length > 0) body[name] = remaining;
}

/**
 * `{ type: 'function', name, description, parameters, strict }` → `{ type: 'function', function: { … } }`; a custom
 * tool `{ type: 'custom', name, description, format }` → `{ type: 'custom', custom: { … } }`, a grammar format's
 * `definition` and `syntax` back under `grammar`.
 */
function chatTool(tool: unknown): unknown {
  if (!isObject(tool)) return tool;
  if (tool.type === 'custom') {
    const { type, format, ...definition } = tool;
    if (format === undefined) return { type, custom: definition };
    return { type, custom: { ...definition, format: chatGrammar(format) } };
  }
  if (tool.type !== 'function') return tool;
  const { type, ...definition } = tool;
  return { type, function: definition };
}

function chatGrammar(format: unknown): unknown {
  if (!isObject(format) || format.type !== 'grammar') return format;
  const { type, ...grammar } = format;
  return { type, grammar };
}

function chatToolChoice(choice: unknown): unknown {
  if (isObject(choice) && (choice.type === 'function' || choice.type === 'custom') && typeof choice.name === 'string') {
    return choice.type === 'function'
      ? { type: 'function', function: { name: choice.name } }
      : { type: 'custom', custom: { name: choice.name } };
  }
  return choice;
}

/** `{ type: 'json_schema', name, schema, strict, description }` → `{ type, json_schema: { … } }`. */
function chatFormat(format: unknown): unknown {
  if (!isObject(format) || format.type !== 'json_schema') return format;
  const { type, ...schema } = format;
  return { type, json_schema: schema };
}
