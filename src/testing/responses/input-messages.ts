import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { isObject, type Fields as Message } from './fields';

/**
 * Translate a Responses `input` (and `instructions`) back into chat-completions messages, so a recorded request
 * reads the same on both routes.
 *
 * Items follow the order a model produced them: an assistant's reasoning items, its text, then its function
 * calls. So a `function_call` joins the assistant message right before it, reasoning waits for the next assistant
 * message, and anything that breaks the run (a user or tool message, the end of the input) closes the assistant
 * message. Items of a type with no chat meaning are kept as received, never dropped.
 */
export function inputToMessages(input: unknown, instructions: unknown): ChatCompletionMessageParam[] {
  const messages: Message[] = [];
  if (typeof instructions === 'string') messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  if (!Array.isArray(input)) return messages as unknown as ChatCompletionMessageParam[];

  let reasoning: unknown[] = [];
  /** The assistant message function calls may still join; none once something else came after it. */
  let open: Message | undefined;
  const assistant = (content: unknown): Message => {
    const message: Message = { role: 'assistant', content };
    if (reasoning.length > 0) message.reasoning_items = reasoning;
    reasoning = [];
    messages.push(message);
    return message;
  };
  const flushReasoning = (): void => {
    if (reasoning.length > 0) assistant(null);
  };

  for (const item of input as unknown[]) {
    const fields = isObject(item) ? item : {};
    if (fields.type === 'reasoning') {
      reasoning.push(item);
      open = undefined;
    } else if (fields.type === 'function_call') {
      // Reasoning waiting here belongs to a new assistant turn: reasoning always comes before its own text.
      if (open === undefined || reasoning.length > 0) open = assistant(null);
      const calls = (open.tool_calls ??= []) as unknown[];
      calls.push({
        id: fields.call_id,
        type: 'function',
        function: { name: fields.name, arguments: fields.arguments },
      });
    } else if (fields.type === 'function_call_output') {
      flushReasoning();
      open = undefined;
      messages.push({ role: 'tool', tool_call_id: fields.call_id, content: chatContent(fields.output, 'tool') });
    } else if (typeof fields.role === 'string' && (fields.type === undefined || fields.type === 'message')) {
      if (fields.role === 'assistant') {
        open = assistant(chatContent(fields.content, 'assistant'));
      } else {
        flushReasoning();
        open = undefined;
        messages.push({ role: fields.role, content: chatContent(fields.content, fields.role) });
      }
    } else {
      flushReasoning();
      open = undefined;
      messages.push(item as Message);
    }
  }
  flushReasoning();
  return messages as unknown as ChatCompletionMessageParam[];
}

/**
 * A Responses content list in chat form: `input_text` / `output_text` parts become `text` parts and
 * `input_image` an `image_url` part. An assistant's text-only content becomes one string, as the chat wire
 * sends it. Anything else is kept as received.
 */
function chatContent(content: unknown, role: string): unknown {
  if (!Array.isArray(content)) return content;
  const parts = content as unknown[];
  if (role === 'assistant' && parts.every((part) => isObject(part) && part.type === 'output_text')) {
    return parts.map((part) => (part as Message).text).join('');
  }
  return parts.map(chatPart);
}

function chatPart(part: unknown): unknown {
  if (!isObject(part)) return part;
  if (part.type === 'input_text' || part.type === 'output_text') return { type: 'text', text: part.text };
  if (part.type === 'input_image' && typeof part.image_url === 'string') {
    const image: Message = { url: part.image_url };
    if (part.detail !== undefined) image.detail = part.detail;
    return { type: 'image_url', image_url: image };
  }
  return part;
}
