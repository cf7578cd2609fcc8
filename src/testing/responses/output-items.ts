import type {
  ResponseFunctionToolCall,
  ResponseOutputMessage,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { splitText } from '../fragments';
import type { PlannedReply } from '../plan-reply';

/** One output item as it ends, with the pieces its deltas stream. */
export type PlannedItem =
  | { type: 'reasoning'; item: ResponseReasoningItem; text: string; pieces: string[] }
  | { type: 'message'; item: ResponseOutputMessage; text: string; pieces: string[] }
  | { type: 'function_call'; item: ResponseFunctionToolCall; pieces: string[] };

/**
 * The output items of a planned reply, in the order a model produces them: reasoning, the message, then one
 * `function_call` per tool call. Item ids are `rs_` / `msg_` / `fc_` plus the response number and the item's
 * index, so they are unique per server and the same on every run.
 *
 * An incomplete response (`finishReason` `length` or `content_filter`) was cut during its last item, so that
 * item's status is `incomplete`.
 */
export function planOutputItems(plan: PlannedReply, responseNumber: number, incomplete: boolean): PlannedItem[] {
  const items: PlannedItem[] = [];
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
  if (plan.text !== '') {
    items.push({
      type: 'message',
      item: {
        id: id('msg'),
        type: 'message',
        status: 'completed',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: plan.text }],
        role: 'assistant',
      },
      text: plan.text,
      pieces: splitText(plan.text, plan.chunkSize),
    });
  }
  for (const call of plan.toolCalls) {
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
  if (incomplete && last !== undefined && last.type !== 'reasoning') last.item.status = 'incomplete';
  return items;
}

/**
 * A stand-in for the encrypted reasoning a model hands back with `include: ['reasoning.encrypted_content']`:
 * opaque to the client, the same for the same item every run, so a test can check it was sent back unchanged.
 */
export function encryptedContent(itemId: string, reasoning: string): string {
  return `scripted-enc:${Buffer.from(`${itemId}\n${reasoning}`, 'utf8').toString('base64')}`;
}
