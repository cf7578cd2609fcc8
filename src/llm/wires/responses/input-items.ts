import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from '../../type';

type ContentPart = ChatCompletionContentPart | { type: 'refusal'; refusal: string };

/**
 * The chat-shaped history as Responses input items. `system` and `developer` messages keep their role; an assistant
 * message becomes its kept reasoning items, then its other kept output items (each once per request, as received),
 * its text as an assistant message (none
 * without text), then one `function_call` per tool call in order (`call_id` = the tool call's id; a custom tool's
 * call is a `custom_tool_call` with its raw `input`); a tool message becomes a `function_call_output`, or a
 * `custom_tool_call_output` when it answers a custom call. What has no Responses form is pushed onto `refused` by
 * its path.
 *
 * @internal
 */
export function toResponsesInput(messages: readonly ChatCompletionMessageParam[], refused: string[]): unknown[] {
  const input: unknown[] = [];
  let sent: Set<string> | undefined;
  // The ids of the custom calls so far: their answers go back as `custom_tool_call_output`, which the API pairs with them.
  let customIds: Set<string> | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    switch (message.role) {
      case 'system':
      case 'developer':
      case 'user':
        input.push({ role: message.role, content: inputContent(message.content, i, refused) });
        break;
      case 'assistant': {
        const { reasoning_items: reasoning, output_items: kept } = message as ChatCompletionAssistantMessageParam;
        for (const items of [reasoning, kept]) {
          if (!items?.length) continue;
          sent ??= new Set();
          for (const item of items) {
            // The same item kept twice (a history edited by hand) must not go out twice.
            if (item.id !== undefined) {
              if (sent.has(item.id)) continue;
              sent.add(item.id);
            }
            input.push(item);
          }
        }
        // A refusal goes back as what the assistant said: the input has no refusal field.
        const text = plainText(message.content) + (message.refusal ?? '');
        if (text) input.push({ role: 'assistant', content: text });
        const calls = message.tool_calls;
        if (calls)
          for (let j = 0; j < calls.length; j++) {
            const call = calls[j];
            if (call.type === 'function')
              input.push({
                type: 'function_call',
                call_id: call.id,
                name: call.function.name,
                arguments: call.function.arguments,
              });
            else if (call.type === 'custom') {
              (customIds ??= new Set()).add(call.id);
              input.push({
                type: 'custom_tool_call',
                call_id: call.id,
                name: call.custom.name,
                input: call.custom.input,
              });
            } else
              refused.push(`messages[${i}].tool_calls[${j}] (type "${String((call as { type?: unknown }).type)}")`);
          }
        break;
      }
      case 'tool':
        input.push({
          type: customIds?.has(message.tool_call_id) ? 'custom_tool_call_output' : 'function_call_output',
          call_id: message.tool_call_id,
          output: plainText(message.content),
        });
        break;
      default:
        refused.push(`messages[${i}] (role "${String((message as { role: unknown }).role)}")`);
    }
  }
  return input;
}

/** A user, system or developer message's content: a string as it is, parts as input parts. */
function inputContent(content: string | readonly ContentPart[], index: number, refused: string[]): unknown {
  if (typeof content === 'string') return content;
  const parts: unknown[] = [];
  for (let j = 0; j < content.length; j++) {
    const part = content[j];
    switch (part.type) {
      case 'text':
        parts.push({ type: 'input_text', text: part.text });
        break;
      case 'image_url':
        parts.push({ type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' });
        break;
      case 'file':
        parts.push({ type: 'input_file', ...part.file });
        break;
      default:
        refused.push(`messages[${index}].content[${j}] (type "${String(part.type)}")`);
    }
  }
  return parts;
}

/** The text of an assistant or tool message's content: a string, or its text and refusal parts joined. */
function plainText(content: string | readonly ContentPart[] | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'refusal') text += part.refusal;
  }
  return text;
}
