import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';

/** A Responses stream reassembled the way a client must: deltas concatenated per item, the final response kept. */
export type CollectedResponseStream = {
  events: ResponseStreamEvent[];
  text: string;
  reasoning: string;
  /** Function calls by output index, their arguments joined from the deltas. */
  calls: Array<{ id: string; call_id: string; name: string; arguments: string; fragments: number }>;
  /** The response of `response.completed` / `response.incomplete` / `response.failed`. */
  final: Response | undefined;
};

/** Drain a stream; `into` lets a test inspect what arrived before the iteration threw. */
export async function collectResponseStream(
  stream: AsyncIterable<ResponseStreamEvent>,
  into: CollectedResponseStream = emptyResponseStream(),
): Promise<CollectedResponseStream> {
  for await (const event of stream) {
    into.events.push(event);
    switch (event.type) {
      case 'response.output_text.delta':
        into.text += event.delta;
        break;
      case 'response.reasoning_summary_text.delta':
        into.reasoning += event.delta;
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call') {
          const { id = '', call_id, name } = event.item;
          into.calls[event.output_index] = { id, call_id, name, arguments: '', fragments: 0 };
        }
        break;
      case 'response.function_call_arguments.delta': {
        const call = into.calls[event.output_index];
        call.arguments += event.delta;
        call.fragments++;
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        into.final = event.response;
        break;
    }
  }
  into.calls = into.calls.filter(Boolean);
  return into;
}

export function emptyResponseStream(): CollectedResponseStream {
  return { events: [], text: '', reasoning: '', calls: [], final: undefined };
}
