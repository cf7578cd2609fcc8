import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { WireProtocol } from '../wire';
import { toResponsesBody } from './request-body';
import { ResponsesReader } from './response-reader';

/**
 * The Responses wire: the chat-shaped body and history become a stateless Responses request (see
 * `toResponsesBody`), sent through the client's `responses.create`; events and whole responses are read by
 * {@link ResponsesReader} into the same state, message and hooks as the chat wire's.
 *
 * @internal
 */
export const responsesWire: WireProtocol<ResponseStreamEvent> = {
  name: 'responses',
  path: '/responses',
  send(client, body, stream, options, attempts) {
    const request = attempts.track(toResponsesBody(body, stream));
    if (!client.responses)
      throw new TypeError(
        "wire: 'responses' needs a client with responses.create (an openai SDK client); this one has only " +
          "chat.completions: pass an openai client, or set wire: 'chat'",
      );
    return client.responses.create(request, options);
  },
  receiver(state, apiError, headers) {
    return new ResponsesReader(state, apiError, headers);
  },
  failure(error) {
    return error;
  },
};
