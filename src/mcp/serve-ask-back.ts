import { createHash, randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type RequestStateCodec,
  type AuthInfo,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../index';
import { runMcpCallAsking, type McpCallInput, type ToolInputAnswer, type ToolInteractive } from './run-mcp-call';

/** Rounds of questions one call may ask before it is answered with an error instead (a tool that never stops asking). */
const MAX_ROUNDS = 8;
/** How long a question stays answerable: a person may take a while, but a forgotten state must not live forever. */
const STATE_TTL_SECONDS = 24 * 60 * 60;
/** The key of the one question a round asks, in `inputRequests` / `inputResponses`. */
const INPUT_KEY = 'agentcall_answer';
/** The longest message a question shows; a tool's own text, but a client shows it to a person. */
const MAX_MESSAGE_CHARS = 2_000;
/** What the model reads when the person says no to a call that needed approval (the loop's own words). */
const REJECTED = 'Tool call rejected by the user';

/** What a question's `requestState` carries back, signed: which call asked, and what it asked. */
type AskState = {
  /** The tool's name. */
  t: string;
  /** SHA-256 of the call's arguments as JSON: an answer given for some arguments never runs other ones. */
  a: string;
  /** Rounds asked so far. */
  r: number;
  /** The question was the approval of a `needsApproval` tool. */
  p?: 1;
};

/**
 * How a server asks back: the codec that signs and verifies `requestState` (HMAC with the server's `stateSecret`,
 * bound to the caller), and the verify hook the SDK runs before a retried call reaches its handler.
 *
 * @internal
 */
export type AskBack = {
  readonly codec: RequestStateCodec<AskState>;
  readonly verify: (state: string, ctx: ServerContext) => Promise<AskState>;
};

// One random key per process for servers without `stateSecret`: questions are then answered only by this process.
let processSecret: Uint8Array | undefined;

/**
 * The ask-back of a server whose requests' callers are found by `callerOf`: one state minted for a caller verifies
 * only for the same caller (its JSON), on any instance that has the same `stateSecret`.
 *
 * @internal
 */
export function createAskBack(
  stateSecret: string | Uint8Array | undefined,
  callerOf: (authInfo: AuthInfo | undefined) => unknown,
): AskBack {
  const key = stateSecret ?? (processSecret ??= new Uint8Array(randomBytes(32)));
  const codec = createRequestStateCodec<AskState>({
    key,
    ttlSeconds: STATE_TTL_SECONDS,
    bind: (ctx) => `${ctx.mcpReq.method}\u0000${callerKey(callerOf(ctx.http?.authInfo))}`,
  });
  return { codec, verify: (state, ctx) => codec.verify(state, ctx) };
}

/** What {@link callAskingBack} needs besides the call itself. */
export type AskingCall = McpCallInput & {
  ctx: ServerContext;
  askBack: AskBack;
};

/**
 * Run one `tools/call`, asking the client when the tool needs a person: a tool with `needsApproval` is asked about
 * before it runs, and a tool that returns `interactive` asks its question. The question goes out as an
 * `input_required` result (2026-07-28) whose `requestState` is signed and bound to the caller; the SDK turns it into
 * an elicitation request for a 2025-era session. The retried call (on any instance with the same secret) runs the
 * tool again with `ctx.answer`.
 *
 * @internal
 */
export async function callAskingBack(input: AskingCall): Promise<CallToolResult | InputRequiredResult> {
  const { tool, ctx } = input;
  const name = tool.schema.function.name;
  const argsDigest = digest(input.args);
  const state = ctx.mcpReq.requestState<AskState>();
  let answer: ToolInputAnswer | undefined;
  let round = 0;
  if (state !== undefined) {
    if (!isAskState(state) || state.t !== name || state.a !== argsDigest) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState belongs to another call');
    }
    answer = answerOf(ctx.mcpReq.inputResponses?.[INPUT_KEY]);
    if (!answer) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses.${INPUT_KEY} is missing`);
    round = state.r;
    if (state.p === 1) {
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: REJECTED }], isError: true };
      answer = undefined;
    }
  } else if (await needsApproval(tool, input.args)) {
    return ask(
      input,
      { message: `Allow ${name} to run with ${truncate(JSON.stringify(input.args ?? {}))}?` },
      {
        t: name,
        a: argsDigest,
        r: 1,
        p: 1,
      },
    );
  }
  const { result, asked } = await runMcpCallAsking({ ...input, ...(answer && { answer }) });
  if (!asked) return result;
  if (round >= MAX_ROUNDS) {
    return {
      content: [{ type: 'text', text: `Tool error: ${name} asked more than ${MAX_ROUNDS} times` }],
      isError: true,
    };
  }
  return ask(input, questionOf(asked, result), { t: name, a: argsDigest, r: round + 1 });
}

/** The `input_required` result asking `question`, with the signed state that brings the answer back to this call. */
async function ask(
  { ctx, askBack, tool }: AskingCall,
  question: { message: string; requestedSchema?: ElicitRequestFormParams['requestedSchema'] },
  state: AskState,
): Promise<CallToolResult | InputRequiredResult> {
  const requestedSchema = question.requestedSchema ?? { type: 'object', properties: {} };
  let request;
  try {
    request = inputRequired.elicit({ mode: 'form', message: question.message, requestedSchema });
  } catch {
    const text = `Tool error: ${tool.schema.function.name} asked with a requestedSchema an MCP form cannot carry`;
    return { content: [{ type: 'text', text }], isError: true };
  }
  return inputRequired({
    inputRequests: { [INPUT_KEY]: request },
    requestState: await askBack.codec.mint(state, ctx),
  });
}

/** What a tool's `interactive` asks: its `message` (or `question`, or the tool's text) and its `requestedSchema`. */
function questionOf(
  asked: ToolInteractive,
  result: CallToolResult,
): { message: string; requestedSchema?: ElicitRequestFormParams['requestedSchema'] } {
  const text = result.content.find((part) => part.type === 'text');
  const message =
    (typeof asked.message === 'string' && asked.message) ||
    (typeof asked.question === 'string' && asked.question) ||
    (text?.type === 'text' && text.text) ||
    `${asked.type}?`;
  const schema = asked.requestedSchema;
  const requestedSchema = isObjectSchema(schema) ? schema : undefined;
  return { message: truncate(message), ...(requestedSchema && { requestedSchema }) };
}

function isObjectSchema(value: unknown): value is ElicitRequestFormParams['requestedSchema'] {
  if (typeof value !== 'object' || value === null) return false;
  const schema = value as { type?: unknown; properties?: unknown };
  return schema.type === 'object' && typeof schema.properties === 'object' && schema.properties !== null;
}

/** Whether the tool wants a person's yes before this call runs; arguments that do not parse ask nobody. */
async function needsApproval(tool: ToolDefinition, args: Record<string, unknown> | undefined): Promise<boolean> {
  const rule = tool.needsApproval;
  if (rule === undefined || rule === false) return false;
  if (rule === true) return true;
  const raw = JSON.stringify(args ?? {});
  let params: unknown = args ?? {};
  if (tool.parseParams) {
    const parsed = tool.parseParams(raw);
    if (!parsed.success) return false;
    params = parsed.data;
  }
  try {
    return (
      (await rule({
        call: { id: 'mcp', type: 'function', function: { name: tool.schema.function.name, arguments: raw } },
        params,
      })) === true
    );
  } catch {
    // A check that cannot decide asks: running unasked is the one outcome it exists to prevent.
    return true;
  }
}

/** An elicitation result from the client, read as untrusted: a known action, and content only as an object. */
function answerOf(value: unknown): ToolInputAnswer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { action, content } = value as { action?: unknown; content?: unknown };
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return undefined;
  const isObject = typeof content === 'object' && content !== null && !Array.isArray(content);
  return { action, ...(action === 'accept' && isObject && { content: content as Record<string, unknown> }) };
}

function isAskState(value: unknown): value is AskState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Partial<AskState>;
  return typeof state.t === 'string' && typeof state.a === 'string' && Number.isSafeInteger(state.r);
}

/**
 * The caller as the binding sees it: its JSON. One that cannot be written as JSON binds to nothing it could match.
 *
 * @internal
 */
export function callerKey(caller: unknown): string {
  try {
    return JSON.stringify(caller) ?? 'undefined';
  } catch {
    return randomBytes(16).toString('hex');
  }
}

function digest(args: Record<string, unknown> | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(args ?? {}))
    .digest('base64url');
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}
