import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ResponsesWireRequiredError } from '../../../errors/responses-wire-required.error';
import type { ResponseState } from '../../response/response-state';
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from '../../type';
import type { WireProtocol, WireReceiver } from '../wire';
import { ChatReader } from './chat-reader';

/**
 * The Chat Completions wire: the body goes out as it is (streamed with `stream_options.include_usage`), with the
 * history stripped of what only the Responses wire keeps; its {@link ChatReader} reads chunks and completions into the {@link ResponseState}.
 *
 * @internal
 */
export const chatWire: WireProtocol<ChatCompletionChunk> = {
  name: 'chat',
  path: '/chat/completions',
  send(client, body, stream, options, attempts) {
    const messages = chatMessages(body.messages);
    return stream
      ? client.chat.completions.create(
          attempts.track({ ...body, messages, stream: true, stream_options: { include_usage: true } }),
          options,
        )
      : client.chat.completions.create(attempts.track({ ...body, messages, stream: false }), options);
  },
  receiver(state: ResponseState): WireReceiver<ChatCompletionChunk> {
    return new ChatReader(state);
  },
  failure(error) {
    return pointsToResponses(error) ? new ResponsesWireRequiredError(error) : error;
  },
};

/**
 * `messages` without what only the Responses wire keeps (`reasoning_items`, `output_items`, for a run resumed on
 * this wire) and the `annotations` no request takes: the same array when no message has them, so the usual history
 * is neither copied nor changed.
 *
 * @internal
 */
export function chatMessages(messages: ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  let stripped: ChatCompletionMessageParam[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ChatCompletionAssistantMessageParam;
    if (
      message.role !== 'assistant' ||
      (message.reasoning_items === undefined && message.output_items === undefined && message.annotations === undefined)
    )
      continue;
    stripped ??= messages.slice();
    const { reasoning_items: _items, output_items: _output, annotations: _annotations, ...rest } = message;
    stripped[i] = rest;
  }
  return stripped ?? messages;
}

/** A 400 whose message sends the caller to `/v1/responses` (OpenAI's reasoning models with function tools). */
function pointsToResponses(error: unknown): error is Error & { status?: number } {
  if (!(error instanceof Error)) return false;
  const status = (error as { status?: unknown }).status;
  return status === 400 && error.message.includes('/v1/responses');
}
