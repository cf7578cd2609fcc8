import type { PlannedItem, PlannedPart } from './output-items';
import { buildResponse, type ResponseMeta, type ResponseSnapshot } from './response-object';

/**
 * An event before its number: `sequence_number` comes first, as OpenAI orders it, and is set once the faults are
 * in place. Shapes follow the SDK's `ResponseStreamEvent` types and OpenAI's recorded streams.
 */
type Draft = { type: string; sequence_number: number } & Record<string, unknown>;

/** What the stream encoder needs besides the items. */
export type ResponseStreamOptions = {
  /** The terminal snapshot: `completed` or `incomplete`, with usage. */
  final: Omit<ResponseSnapshot, 'output'>;
  malformedChunkAt?: number;
  streamErrorAt?: number;
  errorMessage?: string;
};

const MALFORMED_EVENT =
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta", this is not JSON\n\n';

/**
 * Encode the items of one response as the Responses API streams them: `event: <type>` and `data: <json>` per
 * event, numbered by `sequence_number`, with no `[DONE]` at the end.
 *
 * `response.created` and `response.in_progress` carry the response with no output; each item has its
 * `output_item.added`, its deltas (reasoning summary, text content part, or function-call arguments) and its
 * `output_item.done`; `response.completed` (or `response.incomplete`) carries the whole response and its usage.
 */
export function buildResponseEvents(
  items: PlannedItem[],
  meta: ResponseMeta,
  options: ResponseStreamOptions,
): string[] {
  const started = buildResponse(meta, { status: 'in_progress', output: [], usage: null });
  const drafts: Draft[] = [
    { type: 'response.created', sequence_number: 0, response: started },
    { type: 'response.in_progress', sequence_number: 0, response: started },
  ];
  items.forEach((planned, output_index) => drafts.push(...itemEvents(planned, output_index)));
  const final = buildResponse(meta, { ...options.final, output: items.map((planned) => planned.item) });
  const terminal = final.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  drafts.push({ type: terminal, sequence_number: 0, response: final });

  const events: Array<Draft | string> = drafts;
  injectFaults(events, meta, options);
  return events.map((event, index) => {
    if (typeof event === 'string') return event;
    event.sequence_number = index;
    return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  });
}

function itemEvents(planned: PlannedItem, output_index: number): Draft[] {
  const added = { type: 'response.output_item.added', sequence_number: 0, output_index };
  const done = { type: 'response.output_item.done', sequence_number: 0, output_index };
  if (planned.type === 'given')
    return [
      { ...added, item: planned.item },
      { ...done, item: planned.item },
    ];
  const item_id = planned.item.id;
  if (planned.type === 'reasoning') {
    const head = { sequence_number: 0, item_id, output_index, summary_index: 0 };
    const part = { type: 'summary_text', text: planned.text };
    return [
      { ...added, item: { ...planned.item, summary: [] } },
      { type: 'response.reasoning_summary_part.added', ...head, part: { ...part, text: '' } },
      ...planned.pieces.map((delta): Draft => ({ type: 'response.reasoning_summary_text.delta', ...head, delta })),
      { type: 'response.reasoning_summary_text.done', ...head, text: planned.text },
      { type: 'response.reasoning_summary_part.done', ...head, part },
      { ...done, item: planned.item },
    ];
  }
  if (planned.type === 'message') {
    return [
      { ...added, item: { ...planned.item, status: 'in_progress', content: [] } },
      ...planned.parts.flatMap((part, content_index) =>
        partEvents(part, { item_id: planned.item.id, output_index, content_index }),
      ),
      { ...done, item: planned.item },
    ];
  }
  const head = { sequence_number: 0, item_id, output_index };
  if (planned.type === 'custom_tool_call') {
    return [
      { ...added, item: { ...planned.item, status: 'in_progress', input: '' } },
      ...planned.pieces.map((delta): Draft => ({ type: 'response.custom_tool_call_input.delta', ...head, delta })),
      { type: 'response.custom_tool_call_input.done', ...head, input: planned.item.input },
      { ...done, item: planned.item },
    ];
  }
  return [
    { ...added, item: { ...planned.item, status: 'in_progress', arguments: '' } },
    ...planned.pieces.map((delta): Draft => ({ type: 'response.function_call_arguments.delta', ...head, delta })),
    {
      type: 'response.function_call_arguments.done',
      ...head,
      name: planned.item.name,
      arguments: planned.item.arguments,
    },
    { ...done, item: planned.item },
  ];
}

/**
 * One content part of a message: its text deltas, then each annotation, as OpenAI streams them; or its refusal
 * deltas.
 */
function partEvents(
  planned: PlannedPart,
  where: { item_id: string; output_index: number; content_index: number },
): Draft[] {
  const head = { sequence_number: 0, ...where };
  if (planned.type === 'refusal') {
    return [
      { type: 'response.content_part.added', ...head, part: { ...planned.part, refusal: '' } },
      ...planned.pieces.map((delta): Draft => ({ type: 'response.refusal.delta', ...head, delta })),
      { type: 'response.refusal.done', ...head, refusal: planned.text },
      { type: 'response.content_part.done', ...head, part: planned.part },
    ];
  }
  return [
    { type: 'response.content_part.added', ...head, part: { ...planned.part, annotations: [], text: '' } },
    ...planned.pieces.map((delta): Draft => ({ type: 'response.output_text.delta', ...head, delta, logprobs: [] })),
    ...planned.part.annotations.map((annotation, annotation_index): Draft => ({
      type: 'response.output_text.annotation.added',
      ...head,
      annotation_index,
      annotation,
    })),
    { type: 'response.output_text.done', ...head, text: planned.text, logprobs: [] },
    { type: 'response.content_part.done', ...head, part: planned.part },
  ];
}

/**
 * Put the faults in at their numbers, ascending so each keeps the position it asked for. A stream error ends
 * the stream as OpenAI does: an `error` event, then `response.failed`, and nothing after them.
 */
function injectFaults(events: Array<Draft | string>, meta: ResponseMeta, options: ResponseStreamOptions): void {
  const faults: Array<[number, () => void]> = [];
  if (options.malformedChunkAt !== undefined) {
    const at = options.malformedChunkAt;
    faults.push([at, () => events.splice(at, 0, MALFORMED_EVENT)]);
  }
  if (options.streamErrorAt !== undefined) {
    const at = options.streamErrorAt;
    const message = options.errorMessage ?? 'scripted stream error';
    const error: Draft = {
      type: 'error',
      sequence_number: 0,
      error: { type: 'server_error', code: 'scripted_stream_error', message, param: null },
    };
    const response = buildResponse(meta, { status: 'failed', output: [], usage: null, errorMessage: message });
    const failed: Draft = { type: 'response.failed', sequence_number: 0, response };
    faults.push([at, () => events.splice(at, events.length, error, failed)]);
  }
  faults.sort((a, b) => a[0] - b[0]);
  for (const [, inject] of faults) inject();
}
