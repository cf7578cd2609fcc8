import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { ResponseCreateParams } from 'openai/resources/responses/responses';
import { RequestTooLargeError, ScriptedReplyError } from './errors';
import { sendError } from './error-body';
import { planReply } from './plan-reply';
import { serveChat } from './serve-chat';
import { parseJsonObject, readBody } from './read-body';
import type { ServerState } from './server-state';
import { sleep } from './sleep';
import { writeRecorded } from './write-recorded';
import { toChatBody } from './responses/request-body';
import { serveResponse } from './responses/serve';
import type { RecordedRequest, ScriptedReply, ScriptedTurn, ScriptedWire } from './types';
import { validateReply } from './validate-reply';

const CHAT_PATH = '/v1/chat/completions';
const RESPONSES_PATH = '/v1/responses';
const ROUTES = new Map<string, ScriptedWire>([
  [CHAT_PATH, 'chat'],
  [RESPONSES_PATH, 'responses'],
]);
const FALLBACK_MODEL = 'scripted-model';

/** The node:http listener serving `POST /v1/chat/completions` and `POST /v1/responses` from the scripts in `state`. */
export function createRequestHandler(state: ServerState): RequestListener {
  return (req, res) => {
    const signal = state.track((listener) => res.once('close', listener));
    // Writing to a client that already left is expected here (aborts are what tests exercise), not a crash.
    res.on('error', ignore);
    handle(req, res, state, signal).catch((error: unknown) => {
      // The script is intact; only this exchange broke. Tell the client if it can still hear it.
      if (res.headersSent || res.destroyed) res.destroy();
      else sendError(res, 500, `scripted server: ${messageOf(error)}`, { retry: false });
    });
  };
}

/** Route, parse, record, take the turn: everything that must happen before the reply is known. */
async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  state: ServerState,
  signal: AbortSignal,
): Promise<void> {
  const path = (req.url ?? '').split('?', 1)[0];
  const wire = req.method === 'POST' ? ROUTES.get(path) : undefined;
  if (wire === undefined) {
    req.resume();
    const only = `only POST ${CHAT_PATH} and POST ${RESPONSES_PATH}`;
    return sendError(res, 404, `scripted server: no route for ${req.method} ${path}; ${only}`, {
      code: 'unknown_url',
      retry: false,
    });
  }
  let raw: string;
  try {
    raw = await readBody(req, state.maxBodyBytes);
  } catch (error) {
    if (!(error instanceof RequestTooLargeError)) throw error;
    // Answer at once and close: the rest of the body is drained unread.
    res.setHeader('connection', 'close');
    return sendError(res, 413, error.message, { code: 'request_too_large', retry: false });
  }
  const rawBody = parseJsonObject(raw);
  if (rawBody === undefined) {
    return sendError(res, 400, 'scripted server: request body is not a JSON object', {
      code: 'invalid_json',
      retry: false,
    });
  }

  const apiKey = bearerToken(req.headers.authorization);
  const script = state.scriptFor(apiKey);
  const { headers } = req;
  // The body is typed, not validated: the server only checked it is a JSON object.
  const request =
    wire === 'responses'
      ? state.record(script, {
          wire,
          path,
          headers,
          body: toChatBody(rawBody, (id) => state.issuedItem(id)),
          rawBody: rawBody as unknown as ResponseCreateParams,
          apiKey,
        })
      : state.record(script, { wire, path, headers, body: asChat(rawBody), rawBody: asChat(rawBody), apiKey });
  const turn = script.take();
  if (turn === undefined) {
    return sendError(res, 500, `scripted server: no scripted turn left for request #${request.index}`, {
      code: 'scripted_turn_missing',
      retry: false,
    });
  }

  let reply: ScriptedReply;
  try {
    reply = await resolveTurn(turn, request);
  } catch (error) {
    const reason = error instanceof ScriptedReplyError ? error.message : `turn function threw: ${messageOf(error)}`;
    return sendError(res, 500, `scripted server: request #${request.index}: ${reason}`, {
      code: 'scripted_turn_failed',
      retry: false,
    });
  }
  return answer(res, reply, request, state, signal);
}

/** Serve a validated reply: an HTTP error, a JSON body or an SSE stream on the request's wire, after its stall. */
async function answer(
  res: ServerResponse,
  reply: ScriptedReply,
  request: RecordedRequest,
  state: ServerState,
  signal: AbortSignal,
): Promise<void> {
  const { body } = request;
  if (reply.recorded !== undefined) {
    if (!(await stall(reply.delayMs, signal))) return;
    const options = { stream: request.rawBody.stream === true, chunkDelayMs: reply.chunkDelayMs ?? 0 };
    return writeRecorded(res, reply.recorded, options, signal);
  }
  if (reply.status !== undefined) {
    if (!(await stall(reply.delayMs, signal))) return;
    return sendError(res, reply.status, reply.errorMessage ?? `scripted error ${reply.status}`, {
      code: reply.status === 429 ? 'rate_limit_exceeded' : 'scripted_error',
    });
  }

  // Planned before the stall so tool-call and response ids follow arrival order, not answer order.
  const plan = planReply(reply, {
    body,
    defaultChunkSize: state.chunkSize,
    nextToolCallId: () => state.nextToolCallId(),
  });
  const created = Math.floor(Date.now() / 1000);
  const model = state.model ?? (typeof body.model === 'string' ? body.model : FALLBACK_MODEL);
  if (request.wire === 'responses') {
    const identity = { number: state.nextResponseNumber(), createdAt: created, model };
    if (!(await stall(reply.delayMs, signal))) return;
    return serveResponse(
      res,
      plan,
      reply,
      { ...identity, request: request.rawBody as Record<string, unknown>, issue: (items) => state.issue(items) },
      signal,
    );
  }
  const meta = { id: state.nextCompletionId(), created, model };
  if (!(await stall(reply.delayMs, signal))) return;
  return serveChat(res, plan, reply, body, meta, signal);
}

async function resolveTurn(turn: ScriptedTurn, request: RecordedRequest): Promise<ScriptedReply> {
  const reply: unknown = typeof turn === 'function' ? await turn(request) : turn;
  validateReply(reply);
  return reply;
}

/** Wait out a scripted delay; `false` when the client left or the server is closing, i.e. nobody to answer. */
async function stall(delayMs: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (delayMs) return sleep(delayMs, signal);
  return !signal.aborted;
}

function asChat(body: Record<string, unknown>): ChatCompletionCreateParams {
  return body as unknown as ChatCompletionCreateParams;
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(.+)$/i);
  return match?.[1];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ignore(): void {}
