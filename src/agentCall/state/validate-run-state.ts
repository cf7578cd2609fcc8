import { TOOL_NAME_PATTERN } from '../../constants';
import { InvalidRunStateError } from '../../errors/invalid-run-state.error';
import { RunStateVersionError } from '../../errors/run-state-version.error';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../../llm/type';
import { asFunctionCall } from '../../llm/response/function-calls';
import { AWAITING_APPROVAL_RESPONSE, keptParams } from './kept-params';
import { RUN_STATE_VERSION, type PendingCall, type RunState } from './run-state';
import type { ChildrenInteractiveParams } from './run-result';

type Fields = Record<string, unknown>;

const ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/**
 * Check, in time linear in its size, that `value` is a run state this release can resume from without trusting
 * anything in it: every field of its type; `turn`, the usage counts and the loop-guard count non-negative safe
 * integers (a `-1e999` parses to −∞ and would lift the turn cap), and so are the budget's counts in `spent`, whose
 * `costUsd` is a finite non-negative number; every message an object of a known role and
 * shape (provider fields such as `reasoning_content` allowed); each pending call one of the calls of the history's
 * last assistant message, identical to it, listed once, and (for an approval) not answered yet.
 *
 * A wrong `v` is a {@link RunStateVersionError}; anything else wrong is an {@link InvalidRunStateError} naming where.
 *
 * @internal
 */
export function validateRunState(value: unknown): asserts value is RunState {
  const version = isFields(value) ? value.v : undefined;
  if (version !== RUN_STATE_VERSION) throw new RunStateVersionError(version);
  const state = value as Fields;
  expectString(state.runId, 'runId');
  const messages = expectMessages(state.messages, 'messages');
  expectCount(state.turn, 'turn');
  if (state.usage !== undefined) {
    const usage = expectFields(state.usage, 'usage');
    expectCount(usage.inputTokens, 'usage.inputTokens');
    expectCount(usage.outputTokens, 'usage.outputTokens');
  }
  if (state.spent !== undefined) expectSpent(state.spent);
  if (state.loopGuard !== undefined) {
    const guard = expectFields(state.loopGuard, 'loopGuard');
    expectString(guard.signature, 'loopGuard.signature');
    expectCount(guard.repeats, 'loopGuard.repeats');
  }
  if (state.traceparent !== undefined) expectString(state.traceparent, 'traceparent');
  if (state.model !== undefined) expectString(state.model, 'model');
  if (state.fallbackIndex !== undefined) {
    expectCount(state.fallbackIndex, 'fallbackIndex');
    // An entry is known by its index and its model: an index alone could not be checked against the list.
    if (state.model === undefined) fail('model', 'must be a string when fallbackIndex is set');
  }
  if (state.outputFailures !== undefined) expectCount(state.outputFailures, 'outputFailures');
  if (state.signature !== undefined) expectString(state.signature, 'signature');
  const made = expectPending(state.pending, messages);
  if (state.children !== undefined || (state.pending as Fields[]).some((entry) => entry.agentPath !== undefined))
    expectChildren(state.children, state.pending as PendingCall[], made);
  if (state.foundTools !== undefined) expectToolNames(state.foundTools, 'foundTools');
  for (const key of Object.keys(state)) if (!KNOWN_KEYS.has(key)) expectNoNegativeCounts(state[key], key);
}

/**
 * Check the seed-style resume data (`childrenInteractiveParams`) before the resume handler or the history sees it.
 *
 * @internal
 */
export function validateInteractiveParams(value: unknown): asserts value is ChildrenInteractiveParams {
  const params = expectFields(value, 'childrenInteractiveParams');
  const response = expectFields(params.childrenResponse, 'childrenInteractiveParams.childrenResponse');
  expectString(response.type, 'childrenInteractiveParams.childrenResponse.type');
  const toolParams = expectFields(params.toolParams, 'childrenInteractiveParams.toolParams');
  expectMessages(toolParams.memoryRequestMessages, 'childrenInteractiveParams.toolParams.memoryRequestMessages');
  expectString(toolParams.toolCallId, 'childrenInteractiveParams.toolParams.toolCallId');
}

const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'v',
  'runId',
  'messages',
  'turn',
  'usage',
  'spent',
  'loopGuard',
  'pending',
  'caller',
  'traceparent',
  'signature',
  'model',
  'fallbackIndex',
  'foundTools',
  'outputFailures',
  'children',
]);

/**
 * Fields a later release adds (budget counters, what a run found) are not known here, but a number in them is a
 * count or an amount: negative or not finite, it could lift a cap the same way a forged `turn` would.
 */
function expectNoNegativeCounts(value: unknown, path: string): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) fail(path, 'must be a finite non-negative number');
    return;
  }
  if (!isFields(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'number' && (!Number.isFinite(inner) || inner < 0))
      fail(`${path}.${key}`, 'must be a finite non-negative number');
  }
}

/** A budget's counters: a forged `-1` or `1e999` would lift its ceiling the way a forged `turn` lifts the turn cap. */
function expectSpent(value: unknown): void {
  const spent = expectFields(value, 'spent');
  expectCount(spent.toolCalls, 'spent.toolCalls');
  expectAmount(spent.costUsd, 'spent.costUsd');
  if (spent.summaryInputTokens !== undefined) expectCount(spent.summaryInputTokens, 'spent.summaryInputTokens');
  if (spent.summaryOutputTokens !== undefined) expectCount(spent.summaryOutputTokens, 'spent.summaryOutputTokens');
}

function expectMessages(value: unknown, path: string): ChatCompletionMessageParam[] {
  if (!Array.isArray(value)) fail(path, 'must be an array of messages');
  for (let i = 0; i < value.length; i++) expectMessage(value[i], `${path}[${i}]`);
  return value as ChatCompletionMessageParam[];
}

function expectMessage(value: unknown, path: string): void {
  const message = expectFields(value, path);
  const role = message.role;
  if (typeof role !== 'string' || !ROLES.has(role)) fail(`${path}.role`, 'must be a known message role');
  if (message.name !== undefined) expectString(message.name, `${path}.name`);
  const content = message.content;
  const nullable = role === 'assistant' || role === 'function';
  if (!(typeof content === 'string' || (nullable && (content === null || content === undefined)))) {
    if (role === 'function' || !Array.isArray(content)) fail(`${path}.content`, 'must be a string or content parts');
    expectRecords(content, `${path}.content`);
  }
  if (role === 'tool') expectString(message.tool_call_id, `${path}.tool_call_id`);
  if (role === 'assistant') expectAssistantFields(message, path);
}

function expectAssistantFields(message: Fields, path: string): void {
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    if (!Array.isArray(message.tool_calls)) fail(`${path}.tool_calls`, 'must be an array of tool calls');
    message.tool_calls.forEach((call, i) => expectToolCall(call, `${path}.tool_calls[${i}]`, true));
  }
  if (message.function_call !== undefined && message.function_call !== null) {
    const call = expectFields(message.function_call, `${path}.function_call`);
    expectString(call.name, `${path}.function_call.name`);
    expectString(call.arguments, `${path}.function_call.arguments`);
  }
  for (const key of ['refusal', 'reasoning_content', 'reasoning'] as const) {
    const text = message[key];
    if (text !== undefined && text !== null) expectString(text, `${path}.${key}`);
  }
  if (message.reasoning_details !== undefined) {
    if (!Array.isArray(message.reasoning_details)) fail(`${path}.reasoning_details`, 'must be an array of objects');
    expectRecords(message.reasoning_details, `${path}.reasoning_details`);
  }
  for (const key of ['reasoning_items', 'output_items'] as const) {
    if (message[key] === undefined) continue;
    if (!Array.isArray(message[key])) fail(`${path}.${key}`, 'must be an array of output items');
    message[key].forEach((item, i) => expectOutputItem(item, `${path}.${key}[${i}]`, key === 'reasoning_items'));
  }
  if (message.annotations !== undefined) {
    if (!Array.isArray(message.annotations)) fail(`${path}.annotations`, 'must be an array of annotations');
    message.annotations.forEach((value: unknown, i) => {
      const at = `${path}.annotations[${i}]`;
      const annotation = expectFields(value, at);
      if (annotation.type !== 'url_citation') fail(`${at}.type`, "must be 'url_citation'");
      expectFields(annotation.url_citation, `${at}.url_citation`);
    });
  }
  if (message.extra_content !== undefined && message.extra_content !== null)
    expectFields(message.extra_content, `${path}.extra_content`);
}

/**
 * A kept Responses item, which goes back to the model as it is: an object with a string `type` (`'reasoning'` in
 * `reasoning_items`) and a string `id` when it has one; a reasoning item's summary, when present, a list of text parts and its
 * `encrypted_content` a string or null, so what goes out is what the wire itself would have kept.
 */
function expectOutputItem(value: unknown, path: string, reasoningOnly: boolean): void {
  const item = expectFields(value, path);
  expectString(item.type, `${path}.type`);
  if (reasoningOnly && item.type !== 'reasoning') fail(`${path}.type`, "must be 'reasoning'");
  if (item.id !== undefined) expectString(item.id, `${path}.id`);
  if (item.type !== 'reasoning') return;
  // Providers that mimic the wire leave the summary out; what is there must still be text parts.
  if (item.summary !== undefined) {
    if (!Array.isArray(item.summary)) fail(`${path}.summary`, 'must be an array of summary parts');
    item.summary.forEach((part, i) =>
      expectString(expectFields(part, `${path}.summary[${i}]`).text, `${path}.summary[${i}].text`),
    );
  }
  if (item.encrypted_content !== undefined && item.encrypted_content !== null)
    expectString(item.encrypted_content, `${path}.encrypted_content`);
  if (item.content !== undefined) {
    if (!Array.isArray(item.content)) fail(`${path}.content`, 'must be an array of reasoning text parts');
    item.content.forEach((part, i) =>
      expectString(expectFields(part, `${path}.content[${i}]`).text, `${path}.content[${i}].text`),
    );
  }
}

/** A tool call: of the history with `allowCustom` (`custom` calls included), else of a pending entry (a function call). */
function expectToolCall(value: unknown, path: string, allowCustom: boolean): void {
  const call = expectFields(value, path);
  expectString(call.id, `${path}.id`);
  if (call.type === 'custom' && allowCustom) {
    const custom = expectFields(call.custom, `${path}.custom`);
    expectString(custom.name, `${path}.custom.name`);
    expectString(custom.input, `${path}.custom.input`);
    return;
  }
  if (call.type !== 'function') fail(`${path}.type`, "must be 'function'");
  const fn = expectFields(call.function, `${path}.function`);
  expectString(fn.name, `${path}.function.name`);
  expectString(fn.arguments, `${path}.function.arguments`);
}

/**
 * Each pending entry must be one of the calls the history's last assistant message made, the same call (name and
 * arguments), listed once; an approval must not be answered yet (its tool message, if any, is still the
 * placeholder). A state cannot make the loop run a call the model never asked for.
 */
function expectPending(
  value: unknown,
  messages: readonly ChatCompletionMessageParam[],
): ReadonlyMap<string, ChatCompletionMessageToolCall> {
  if (!Array.isArray(value)) fail('pending', 'must be an array of pending calls');
  const last = lastAssistantIndex(messages);
  const made = new Map<string, ChatCompletionMessageToolCall>();
  for (const call of last >= 0 ? ((messages[last] as { tool_calls?: unknown[] }).tool_calls ?? []) : []) {
    // A custom call is pending in the shape the loop reads it in (its input as `function.arguments`).
    const fn = call as Parameters<typeof asFunctionCall>[0];
    if ((fn.type === 'function' || fn.type === 'custom') && !made.has(fn.id)) made.set(fn.id, asFunctionCall(fn));
  }
  // Read by the check of `children` too: an agent saved under way has a call here and nothing pending.
  if (!value.length) return made;
  const answers = new Map<string, unknown>();
  for (let i = last + 1; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === 'tool' && !answers.has(message.tool_call_id))
      answers.set(message.tool_call_id, message.content);
  }
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const path = `pending[${i}]`;
    const entry = expectFields(item, path);
    if (entry.kind !== 'approval' && entry.kind !== 'interactive')
      fail(`${path}.kind`, "must be 'approval' or 'interactive'");
    expectToolCall(entry.call, `${path}.call`, false);
    // A resumed call runs with these params, not its arguments parsed again: they must be what a pause keeps.
    if (entry.kind === 'approval' && !keptParams(entry.params))
      fail(`${path}.params`, 'must be JSON data within the argument caps');
    if (entry.kind === 'interactive')
      expectString(expectFields(entry.interactive, `${path}.interactive`).type, `${path}.interactive.type`);
    // Handed back to the tool as `ctx.resumeData` when it runs again: held to what a pause keeps, like params.
    if (entry.kind === 'interactive' && entry.resumeData !== undefined && !keptParams(entry.resumeData))
      fail(`${path}.resumeData`, 'must be JSON data within the argument caps');
    const call = entry.call as ChatCompletionMessageToolCall;
    // A call an agent made is its agent's to check (`expectChildren`): here only its path.
    if (entry.agentPath !== undefined) return expectAgentPath(entry.agentPath, `${path}.agentPath`);
    const original = made.get(call.id);
    if (!original) fail(`${path}.call`, "is not a call of the history's last assistant message");
    if (original.function.name !== call.function.name || original.function.arguments !== call.function.arguments)
      fail(`${path}.call`, 'differs from the call the history made');
    if (seen.has(call.id)) fail(`${path}.call.id`, 'is pending twice');
    seen.add(call.id);
    if (entry.kind === 'approval' && answers.has(call.id) && answers.get(call.id) !== AWAITING_APPROVAL_RESPONSE)
      fail(`${path}.call`, 'is answered already');
  });
  return made;
}

function expectAgentPath(value: unknown, path: string): void {
  if (!Array.isArray(value) || !value.length) fail(path, 'must be a non-empty array of call ids');
  value.forEach((id, i) => expectString(id, `${path}[${i}]`));
}

/**
 * The states of the run's agents (`children`, by call id): each a call of the history's last assistant message, each
 * a run state checked in depth (a problem's path starts `children.<callId>`), and the pending calls listed under an
 * agent's path exactly those its state has pending, the same calls in the same order.
 */
function expectChildren(
  value: unknown,
  pending: readonly PendingCall[],
  made: ReadonlyMap<string, ChatCompletionMessageToolCall>,
): void {
  const children = value === undefined ? {} : expectFields(value, 'children');
  for (const [callId, child] of Object.entries(children)) {
    const path = `children.${callId}`;
    if (!made.has(callId)) fail(path, "is not a call of the history's last assistant message");
    try {
      validateRunState(child);
    } catch (error) {
      if (error instanceof InvalidRunStateError) fail(`${path}.${error.path}`, error.problem);
      if (error instanceof RunStateVersionError) fail(`${path}.v`, 'must be a known run-state version');
      throw error;
    }
    const listed = pending.filter((entry) => entry.agentPath?.[0] === callId);
    const own = child.pending;
    if (listed.length !== own.length) fail(path, 'has pending calls the run does not list, or the reverse');
    listed.forEach((entry, i) => {
      const mine = own[i];
      const same =
        mine.call.id === entry.call.id &&
        mine.call.function.name === entry.call.function.name &&
        mine.call.function.arguments === entry.call.function.arguments &&
        (mine.agentPath ?? []).join('/') === entry.agentPath!.slice(1).join('/');
      if (!same) fail(`${path}.pending[${i}]`, 'differs from the pending call the run lists');
    });
  }
  for (let i = 0; i < pending.length; i++) {
    const head = pending[i].agentPath?.[0];
    if (head !== undefined && !Object.prototype.hasOwnProperty.call(children, head))
      fail(`pending[${i}].agentPath`, 'names an agent call with no state in children');
  }
}

/**
 * Tool names, each valid (`TOOL_NAME_PATTERN`) and listed once. Whether the resuming run has such a tool is not
 * asked here: a name it does not know is kept and never sent.
 */
function expectToolNames(value: unknown, path: string): void {
  if (!Array.isArray(value)) fail(path, 'must be an array of tool names');
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const name: unknown = value[i];
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) fail(`${path}[${i}]`, 'must be a valid tool name');
    if (seen.has(name)) fail(`${path}[${i}]`, 'is listed twice');
    seen.add(name);
  }
}

function lastAssistantIndex(messages: readonly ChatCompletionMessageParam[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return i;
  return -1;
}

function expectRecords(value: unknown[], path: string): void {
  for (let i = 0; i < value.length; i++) expectFields(value[i], `${path}[${i}]`);
}

function expectFields(value: unknown, path: string): Fields {
  if (!isFields(value)) fail(path, 'must be an object');
  return value;
}

function expectString(value: unknown, path: string): asserts value is string {
  if (typeof value !== 'string') fail(path, 'must be a string');
}

function expectCount(value: unknown, path: string): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0) fail(path, 'must be a non-negative safe integer');
}

function expectAmount(value: unknown, path: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    fail(path, 'must be a finite non-negative number');
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(path: string, problem: string): never {
  throw new InvalidRunStateError(path, problem);
}

/**
 * Check that `value` is a run state this release can resume from, in depth (see `validateRunState`): a wrong `v`
 * is a `RunStateVersionError`, a malformed state of the right version an `InvalidRunStateError`.
 */
export function assertRunState(value: unknown): asserts value is RunState {
  validateRunState(value);
}
