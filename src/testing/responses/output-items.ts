import type {
  ResponseCustomToolCall,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseOutputRefusal,
  ResponseOutputText,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { splitText } from '../fragments';
import type { PlannedReply } from '../plan-reply';

/** One content part of a message item, with the pieces its deltas stream. */
export type PlannedPart =
  | { type: 'output_text'; part: ResponseOutputText; text: string; pieces: string[] }
  | { type: 'refusal'; part: ResponseOutputRefusal; text: string; pieces: string[] };

/** One output item as it ends, with the pieces its deltas stream. */
export type PlannedItem =
  | { type: 'given'; item: ResponseOutputItem }
  | { type: 'reasoning'; item: ResponseReasoningItem; text: string; pieces: string[] }
  | { type: 'message'; item: ResponseOutputMessage; parts: PlannedPart[] }
  | { type: 'function_call'; item: ResponseFunctionToolCall; pieces: string[] }
  | { type: 'custom_tool_call'; item: ResponseCustomToolCall & { status?: string }; pieces: string[] };

/**
 * The output items of a planned reply, in the order a model produces them: the reply's given `items` as they are,
 * reasoning, the message (its text part, then its refusal part), then one `function_call` (or `custom_tool_call`)
 * per tool call. Item ids are `rs_` / `msg_` / `fc_` / `ctc_` plus the response number and the item's index, so
 * they are unique per server and the same on every run.
 *
 * An incomplete response (`finishReason` `length` or `content_filter`) was cut during its last item, so that
 * item's status is `incomplete`.
 */
export function planOutputItems(plan: PlannedReply, responseNumber: number, incomplete: boolean): PlannedItem[] {
  // Given items are served as they are, whatever their type: a type this SDK does not know yet included.
  const items: PlannedItem[] = plan.items.map((item) => ({ type: 'given', item: item as ResponseOutputItem }));
  const id = (prefix: string): string => `${prefix}_scripted_${responseNumber}_${items.length}`;
  if (plan.reasoning !== '') {
    const itemId = id('rs');
    items.push({
      type: 'reasoning',
      item: {
        id: itemId,
        type: 'reasoning',
        encrypted_content: encryptedContent(itemId, plan.reasoning),
        summary: [{ type: 'summary_text', text: plan.reasoning }],
      },
      text: plan.reasoning,
      pieces: splitText(plan.reasoning, plan.chunkSize),
    });
  }
  const parts: PlannedPart[] = [];
  if (plan.text !== '') {
    const part: ResponseOutputText = {
      type: 'output_text',
      annotations: plan.annotations,
      logprobs: [],
      text: plan.text,
    };
    parts.push({ type: 'output_text', part, text: plan.text, pieces: splitText(plan.text, plan.chunkSize) });
  }
  if (plan.refusal !== '') {
    const part: ResponseOutputRefusal = { type: 'refusal', refusal: plan.refusal };
    parts.push({ type: 'refusal', part, text: plan.refusal, pieces: splitText(plan.refusal, plan.chunkSize) });
  }
  if (parts.length > 0) {
    items.push({
      type: 'message',
      item: {
        id: id('msg'),
        type: 'message',
        status: 'completed',
        content: parts.map((planned) => planned.part),
        role: 'assistant',
      },
      parts,
    });
  }
  for (const call of plan.toolCalls) {
    if (call.type === 'custom') {
      items.push({
        type: 'custom_tool_call',
        item: {
          id: id('ctc'),
          type: 'custom_tool_call',
          status: 'completed',
          call_id: call.id,
          name: call.name,
          input: call.arguments,
        },
        pieces: call.fragments,
      });
      continue;
    }
    items.push({
      type: 'function_call',
      item: {
        id: id('fc'),
        type: 'function_call',
        status: 'completed',
        arguments: call.arguments,
        call_id: call.id,
        name: call.name,
      },
      pieces: call.fragments,
    });
  }
  const last = items.at(-1);
  if (incomplete && last !== undefined && last.type !== 'reasoning' && last.type !== 'given')
    last.item.status = 'incomplete';
  return items;
}

/**
 * A stand-in for the encrypted reasoning a model hands back with `include: ['reasoning.encrypted_content']`:
 * opaque to the client, the same for the same item every run, so a test can check it was sent back unchanged.
 */
export function encryptedContent(itemId: string, reasoning: string): string {
  return `scripted-enc:${Buffer.from(`${itemId}\n${reasoning}`, 'utf8').toString('base64')}`;
}
