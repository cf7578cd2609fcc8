import type { ToolExecuteContext, ToolExecuteResult } from '../index';
import { capText } from './cap-text';

/** A person's answer to what a tool asked: `ctx.answer`. */
type ToolInputAnswer = NonNullable<ToolExecuteContext['answer']>;

/** What a remote call that asked keeps in the run state to be retried with the answer. */
export type RemoteAsked = {
  /** The key of the question in the server's `inputRequests`, under which the answer goes in `inputResponses`. */
  inputKey: string;
  /** The server's `requestState`, sent back byte for byte. */
  requestState?: string;
};

/** Bounds on what a remote server's question may hold: it is kept in the run state and shown to a person. */
const MAX_MESSAGE_CHARS = 2_000;
const MAX_KEY_CHARS = 200;
const MAX_REQUEST_STATE_CHARS = 64 * 1024;

/**
 * A remote `tools/call` result that asks for input (2026-07-28 `resultType: 'input_required'`) as the paused call
 * of the run: `interactive: { type: 'mcp_input', message, requestedSchema }` for the person, and what the retry
 * needs (`resumeData`: which input key, the `requestState`) kept with the call. Only one form elicitation can be
 * answered this way: a server asking for anything else (sampling, roots, a URL, several questions at once) gets an
 * error. `undefined` for a result that does not ask.
 *
 * @internal
 */
export function remoteAsked(
  result: Record<string, unknown>,
  name: string,
  maxSchemaChars: number,
): ToolExecuteResult | undefined {
  if (result.resultType !== 'input_required') return undefined;
  const requests = result.inputRequests;
  const entries: [string, unknown][] =
    typeof requests === 'object' && requests !== null ? Object.entries(requests as Record<string, unknown>) : [];
  if (entries.length !== 1) {
    throw new Error(`${name} asked for ${entries.length} inputs at once; only one question can wait for a person`);
  }
  const [inputKey, request] = entries[0];
  const { method, params } = (typeof request === 'object' && request !== null ? request : {}) as {
    method?: unknown;
    params?: { mode?: unknown; message?: unknown; requestedSchema?: unknown };
  };
  if (method !== 'elicitation/create' || !params || (params.mode !== undefined && params.mode !== 'form')) {
    throw new Error(`${name} asked for input of a kind that cannot wait for a person (only a form elicitation can)`);
  }
  const requestState = result.requestState;
  if (inputKey.length > MAX_KEY_CHARS) throw new Error(`${name} asked under a key over ${MAX_KEY_CHARS} characters`);
  if (requestState !== undefined && (typeof requestState !== 'string' || requestState.length > MAX_REQUEST_STATE_CHARS))
    throw new Error(
      `${name} asked with a requestState that is not a string of at most ${MAX_REQUEST_STATE_CHARS} characters`,
    );
  const requestedSchema = params.requestedSchema;
  const schemaText = typeof requestedSchema === 'object' && requestedSchema !== null && JSON.stringify(requestedSchema);
  if (!schemaText || schemaText.length > maxSchemaChars)
    throw new Error(
      `${name} asked with a requestedSchema that is not an object of at most ${maxSchemaChars} characters`,
    );
  const message = capText(typeof params.message === 'string' ? params.message : '', MAX_MESSAGE_CHARS);
  const kept: RemoteAsked = { inputKey, ...(requestState !== undefined && { requestState }) };
  return {
    response: `Waiting for the user to answer: ${message}`,
    interactive: { type: 'mcp_input', message, requestedSchema: JSON.parse(schemaText) as Record<string, unknown> },
    resumeData: kept,
  };
}

/**
 * The `tools/call` params that retry a call that asked: the answer under the key the server asked with, and its
 * `requestState`. Read from the run state, so checked again (a state resumed without `stateSecret` could say
 * anything); without an answer, or without what the call kept, the call is made afresh.
 *
 * @internal
 */
export function retryParams(
  answer: ToolInputAnswer | undefined,
  resumeData: unknown,
): { inputResponses: Record<string, ToolInputAnswer>; requestState?: string } | undefined {
  if (answer === undefined || typeof resumeData !== 'object' || resumeData === null) return undefined;
  const { inputKey, requestState } = resumeData as Partial<RemoteAsked>;
  if (typeof inputKey !== 'string' || (requestState !== undefined && typeof requestState !== 'string')) {
    throw new Error('the paused call kept no input key to answer under');
  }
  const response: ToolInputAnswer =
    answer.action === 'accept' && answer.content !== undefined
      ? { action: 'accept', content: answer.content }
      : { action: answer.action };
  return { inputResponses: { [inputKey]: response }, ...(requestState !== undefined && { requestState }) };
}
