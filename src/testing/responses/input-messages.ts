import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { isObject, type Fields as Message } from './fields';

/** The output item this server issued under an id, if any. */
export type ItemResolver = (id: unknown) => object | undefined;

/**
 * Translate a Responses `input` (and `instructions`) back into chat-completions messages, so a recorded request
 * reads the same on both routes.
 *
 * Items follow the order a model produced them: an assistant's reasoning items, its text, then its function
 * calls. So a `function_call` joins the assistant message right before it, reasoning waits for the next assistant
 * message, and anything that breaks the run (a user or tool message, the end of the input) closes the assistant
 * message. Other output items sent back (a hosted tool's call, a compaction, a type not known yet) wait, like
 * reasoning, for the next assistant message, as its `output_items`. An `item_reference` to an item this server
 * issued is read as that item; any other input of no chat meaning is kept as received, never dropped.
 */
export function inputToMessages(
  input: unknown,
  instructions: unknown,
  resolve: ItemResolver = () => undefined,
): ChatCompletionMessageParam[] {
  const messages: Message[] = [];
  if (typeof instructions === 'string') messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  if (!Array.isArray(input)) return messages as unknown as ChatCompletionMessageParam[];

  let reasoning: unknown[] = [];
  /** Other output items sent back (a hosted tool's call, a compaction…): they wait for an assistant message too. */
  let kept: unknown[] = [];
  /** The assistant message function calls may still join; none once something else came after it. */
  let open: Message | undefined;
  const assistant = (content: unknown): Message => {
    const message: Message = { role: 'assistant', content };
    if (reasoning.length > 0) message.reasoning_items = reasoning;
    if (kept.length > 0) message.output_items = kept;
    reasoning = [];
    kept = [];
    messages.push(message);
    return message;
  };
  const flushReasoning = (): void => {
    if (reasoning.length > 0 || kept.length > 0) assistant(null);
  };
  const call = (chatCall: Message): void => {
    // Reasoning waiting here belongs to a new assistant turn: reasoning always comes before its own text.
    if (open === undefined || reasoning.length > 0 || kept.length > 0) open = assistant(null);
    ((open.tool_calls ??= []) as unknown[]).push(chatCall);
  };

  for (const sent of input as unknown[]) {
    // A reference to an item this server issued stands for that item (peers send them instead of the item).
    const referenced = isObject(sent) && sent.type === 'item_reference' ? resolve(sent.id) : undefined;
    const item = referenced ?? sent;
    const fields = isObject(item) ? item : {};
    if (fields.type === 'reasoning') {
      reasoning.push(item);
      open = undefined;
    } else if (fields.type === 'function_call') {
      call({ id: fields.call_id, type: 'function', function: { name: fields.name, arguments: fields.arguments } });
    } else if (fields.type === 'custom_tool_call') {
      call({ id: fields.call_id, type: 'custom', custom: { name: fields.name, input: fields.input } });
    } else if (fields.type === 'function_call_output' || fields.type === 'custom_tool_call_output') {
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
    } else if (typeof fields.type === 'string' && fields.type !== 'item_reference') {
      kept.push(item);
      open = undefined;
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
