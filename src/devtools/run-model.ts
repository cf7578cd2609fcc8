import type { Decision } from '../index';
import { nameText } from './safe-text';
import type { ModelPrice, RecordedLimits, RecordedRun } from './source';
import type {
  DevtoolsRunStatus,
  PendingView,
  RequestExchange,
  RequestItem,
  RunPage,
  RunSummary,
  ShownText,
  StatusItem,
  TimelineItem,
  ToolItem,
} from './types';

/** The call ids from the root run to an agent's run: `undefined` (or empty) for the root's own entries. */
type AgentPath = readonly string[] | undefined;

/** What a decision for call `id` made under `path` is keyed by, and what the model keeps each call under. */
export function callKey(path: AgentPath, id: string): string {
  return path?.length ? `${path.join('/')}/${id}` : id;
}

/** The key of the run an agent path leads to (`''` for the root). */
function runKey(path: AgentPath): string {
  return path?.length ? path.join('/') : '';
}

/** Distinct tool names a summary carries, at most. */
export const MAX_TOOL_NAMES = 50;
/** Characters of a run's input a summary carries. */
const INPUT_CHARS = 200;

/** The first user message of `messages` as text, cut for a summary; `undefined` when there is none. */
export function inputText(messages: readonly unknown[]): string | undefined {
  for (const message of messages) {
    const m = message as { role?: unknown; content?: unknown } | null;
    if (m?.role !== 'user') continue;
    const text =
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? (m.content as unknown[])
              .map((part) => (part as { text?: unknown } | null)?.text)
              .filter((text): text is string => typeof text === 'string')
              .join('')
          : '';
    return text.slice(0, INPUT_CHARS);
  }
  return undefined;
}

/** A request while it is recorded: texts as growing strings. */
type LiveRequest = Omit<RequestItem, 'text' | 'reasoning' | 'live' | 'hasExchange'> & {
  text: string;
  reasoning: string;
  toolCallIds: string[];
  /** The body as the run sent it (the in-process recorder only). */
  sent?: { [key: string]: unknown; messages: unknown[] };
  requestId?: string;
};
/** A tool call while it is recorded. */
type LiveTool = Omit<ToolItem, 'arguments' | 'response' | 'modelResponse'> & {
  arguments: string;
  waited?: boolean;
  response?: string;
  modelResponse?: string;
};
type LiveItem = LiveRequest | LiveTool | StatusItem;

/** Request bodies a run keeps (the newest): each holds the history as it was then. */
export const KEPT_BODIES = 100;

/** Cut `text` to `max` characters for the page, keeping its whole length. */
export function shown(text: string, max: number): ShownText {
  return { text: text.length > max ? text.slice(0, max) : text, length: text.length };
}

/**
 * Everything known of one run, in timeline order, built up as its events arrive. Both sources fill one, so the
 * page, the paging and the test export read every source alike.
 */
export class RunModel {
  status: DevtoolsRunStatus = 'running';
  model?: string;
  turns = 0;
  inputTokens = 0;
  outputTokens = 0;
  startedAt: number;
  updatedAt: number;
  stopReason?: string;
  text?: string;
  error?: string;
  input: unknown[] = [];
  /** Cost of the run's requests, from the run's own `prices` (the recorder); `pricing` of the page overrides it. */
  cost?: number;
  readonly decisions: Record<string, Decision> = {};
  /** What a replay needs besides the turns: the run's limits, the calls that stopped it, its refusal. */
  limits?: RecordedLimits;
  stoppedBy?: string[];
  refusal?: string;
  /** The run asked for a typed answer (`output`). */
  typedOutput?: boolean;
  private waiting: PendingView[] = [];
  /** When the run last went on after waiting for a person: a call that waited runs from then. */
  private resumedAt?: number;
  private readonly items: LiveItem[] = [];
  /** Calls by {@link callKey}: an agent's call ids may repeat its parent's. */
  private readonly tools = new Map<string, LiveTool>();
  /** The request each run of the tree streams now, by {@link runKey}: agents' requests run beside their parent's. */
  private readonly open = new Map<string, LiveRequest>();
  private toolCount = 0;
  /** The requests whose body is kept, oldest first. */
  private readonly withBodies: LiveRequest[] = [];

  constructor(
    readonly runId: string,
    at = Date.now(),
  ) {
    this.startedAt = at;
    this.updatedAt = at;
  }

  /**
   * A model request is sent with `body`. Its messages are copied (the run's history grows on after it), the message
   * objects are not: the history shares them, so a long run keeps one pointer a message a request.
   */
  startRequest(body: { readonly [key: string]: unknown; messages: readonly unknown[] }, at = Date.now()): void {
    this.open.delete('');
    const request = this.request(at);
    request.sent = { ...body, messages: [...body.messages] };
    // Each copy is as long as the history: only the newest bodies are kept, so a long run holds a bounded number.
    this.withBodies.push(request);
    if (this.withBodies.length > KEPT_BODIES) delete this.withBodies.shift()!.sent;
  }

  /** A streamed answer delta (of the agent at `path`, or of the run itself). */
  addText(text: string, at = Date.now(), path?: AgentPath): void {
    this.request(at, path).text += text;
  }

  /** A streamed reasoning delta. */
  addReasoning(text: string, at = Date.now(), path?: AgentPath): void {
    this.request(at, path).reasoning += text;
  }

  /** A tool call the model made (its arguments may come later, with `setArguments`). */
  addToolCall(call: { id: string; name: string; arguments: string }, at = Date.now(), path?: AgentPath): void {
    const key = callKey(path, call.id);
    if (this.tools.has(key)) return this.setArguments(call.id, call.arguments, path);
    this.request(at, path).toolCallIds.push(call.id);
    const tool: LiveTool = {
      kind: 'tool',
      index: this.items.length,
      callId: call.id,
      name: call.name,
      arguments: call.arguments,
      startedAt: at,
      ...(path?.length ? { agentPath: [...path] } : {}),
    };
    this.items.push(tool);
    this.tools.set(key, tool);
    this.toolCount++;
  }

  /** The call's whole arguments, once they are known. */
  setArguments(callId: string, args: string, path?: AgentPath): void {
    const tool = this.tools.get(callKey(path, callId));
    if (tool && args) tool.arguments = args;
  }

  /** A call's work starts (its tool runs, or it is answered without running): where its bar in the waterfall starts. */
  startTool(callId: string, at = Date.now(), path?: AgentPath): void {
    const tool = this.tools.get(callKey(path, callId));
    if (tool) tool.ranAt = at;
  }

  /** A main model request ended. */
  endRequest(
    e: {
      model?: string;
      ms?: number;
      firstChunkMs?: number;
      inputTokens?: number;
      outputTokens?: number;
      requestId?: string;
    },
    at = Date.now(),
    path?: AgentPath,
  ): void {
    const request = this.request(at, path);
    this.open.delete(runKey(path));
    if (e.model) request.model = e.model;
    request.endedAt = at;
    if (e.ms !== undefined) {
      request.durationMs = e.ms;
      request.startedAt = Math.min(request.startedAt, at - e.ms);
    }
    if (e.firstChunkMs !== undefined) request.firstChunkMs = e.firstChunkMs;
    if (e.inputTokens !== undefined) request.inputTokens = e.inputTokens;
    if (e.outputTokens !== undefined) request.outputTokens = e.outputTokens;
    if (e.requestId !== undefined) request.requestId = e.requestId;
    this.touch(at);
  }

  /** Mark the current request ended without numbers (a source that only sees its events). */
  closeRequest(_at = Date.now(), path?: AgentPath): void {
    this.open.delete(runKey(path));
  }

  /** Details of the request that just ended. */
  finishRequest(e: { finishReason?: string; error?: string }, path?: AgentPath): void {
    const key = runKey(path);
    const last = [...this.items]
      .reverse()
      .find((item): item is LiveRequest => item.kind === 'request' && runKey(item.agentPath) === key);
    if (!last) return;
    if (e.finishReason) last.finishReason = e.finishReason;
    if (e.error) last.error = e.error;
  }

  /** A tool call ended. */
  endTool(
    callId: string,
    e: { name?: string; outcome?: string; response: string; durationMs?: number },
    at = Date.now(),
    path?: AgentPath,
  ): void {
    this.closeRequest(at, path);
    const key = callKey(path, callId);
    let tool = this.tools.get(key);
    if (!tool) {
      this.addToolCall({ id: callId, name: e.name ?? '', arguments: '' }, at, path);
      tool = this.tools.get(key)!;
    }
    tool.response = e.response;
    tool.endedAt = at;
    const decision = this.decisions[key];
    const rejected = decision !== undefined && 'approve' in decision && !decision.approve;
    const outcome = e.outcome ?? (rejected ? 'rejected' : undefined);
    if (outcome) tool.outcome = outcome;
    if (e.durationMs !== undefined) tool.durationMs = e.durationMs;
    // A call that waited for a person ran (if at all) after the run went on: the wait is not the tool's time.
    else if (outcome !== 'rejected')
      tool.durationMs = Math.max(
        0,
        at - (tool.waited ? Math.max(tool.startedAt, this.resumedAt ?? 0) : tool.startedAt),
      );
    this.touch(at);
  }

  /** What the model read of a call's result, when it differs from the tool's own text. */
  setModelResponse(callId: string, text: string, path?: AgentPath): void {
    const tool = this.tools.get(callKey(path, callId));
    if (!tool || tool.response === undefined) return;
    if (text !== tool.response) tool.modelResponse = text;
    else delete tool.modelResponse;
  }

  /** A change of status. */
  addStatus(status: DevtoolsRunStatus, e: { stopReason?: string; attempt?: number } = {}, at = Date.now()): void {
    // A change of the run's status ends whatever streamed, in the run and in its agents.
    this.open.clear();
    const last = this.items[this.items.length - 1];
    const same = last?.kind === 'status' && last.status === status && !e.attempt;
    if (!same) this.items.push({ kind: 'status', index: this.items.length, at, status, ...withDefined(e) });
    if (this.status === 'waiting' && (status === 'queued' || status === 'running')) this.resumedAt = at;
    this.status = status;
    if (e.stopReason) this.stopReason = e.stopReason;
    this.touch(at);
  }

  /** The calls waiting for a person. */
  get pending(): PendingView[] {
    return this.waiting;
  }

  /**
   * The calls that wait for a person now. Each is marked as having waited (so that it never reads "running" and its
   * duration is not the person's time), and its arguments are taken from here when no event carried them.
   */
  set pending(views: PendingView[]) {
    this.waiting = views;
    for (const view of views) {
      const tool = this.tools.get(view.key);
      if (!tool) continue;
      tool.waited = true;
      if (!tool.arguments) tool.arguments = view.arguments;
    }
  }

  /**
   * The call that ended the run with `tool_stop`: the last call of the last request that was not skipped (the calls
   * after it were not started, and are answered as skipped).
   */
  stoppingCall(): string[] {
    const last = [...this.items]
      .reverse()
      .find((item): item is LiveRequest => item.kind === 'request' && !item.agentPath);
    const ran = (last?.toolCallIds ?? []).filter((id) => this.tools.get(id)?.outcome !== 'skipped');
    return ran.slice(-1);
  }

  /** Timeline entries so far. */
  get length(): number {
    return this.items.length;
  }

  /** The run's line in the list. */
  summary(pricing?: Record<string, ModelPrice>): RunSummary {
    const price = this.model ? pricing?.[this.model] : undefined;
    const input = inputText(this.input);
    return {
      runId: this.runId,
      status: this.status,
      ...(this.model ? { model: nameText(this.model) } : {}),
      turns: Math.max(this.turns, this.items.filter((item) => item.kind === 'request' && !item.agentPath).length),
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      ...(price
        ? { cost: (this.inputTokens * price.input + this.outputTokens * price.output) / 1e6 }
        : this.cost !== undefined
          ? { cost: this.cost }
          : {}),
      startedAt: this.startedAt,
      updatedAt: this.updatedAt,
      ...(this.stopReason ? { stopReason: this.stopReason } : {}),
      toolCalls: this.toolCount,
      tools: this.toolNames(),
      ...(input !== undefined ? { input } : {}),
    };
  }

  /** The names of the tools called, each once, in the order first called. */
  private toolNames(): string[] {
    const names = new Set<string>();
    for (const tool of this.tools.values()) {
      if (names.size >= MAX_TOOL_NAMES) break;
      if (tool.name) names.add(nameText(tool.name));
    }
    return [...names];
  }

  /** A slice of the timeline with texts cut to `maxChars` (`offset` -1: the last `limit` entries). */
  page(
    options: { offset: number; limit: number; maxChars: number },
    extra: { canDecide: boolean; canCancel: boolean; pricing?: Record<string, ModelPrice> },
  ): RunPage {
    // A negative offset counts from the end: the newest page in one request.
    const from = options.offset < 0 ? this.items.length - options.limit : options.offset;
    const offset = Math.max(0, Math.min(from, this.items.length));
    const items = this.items
      .slice(offset, offset + options.limit)
      .map((item) => view(item, options.maxChars, this.open));
    return {
      summary: this.summary(extra.pricing),
      total: this.items.length,
      offset,
      items,
      pending: this.pending,
      // A run that waits or still runs has no answer yet: its last text is a preamble, shown in its request.
      ...(this.text !== undefined && ended(this.status) ? { text: this.text.slice(0, options.maxChars) } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      canDecide: extra.canDecide,
      canCancel: extra.canCancel,
    };
  }

  /** The whole `field` text of entry `index`. */
  fullText(index: number, field: string): string | undefined {
    const item = this.items[index];
    if (!item || item.kind === 'status') return undefined;
    const value = (item as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * Request `index` as sent and its response as the run assembled it from the stream; `undefined` when the entry is
   * no request, or the source did not see its body.
   */
  exchange(index: number): RequestExchange | undefined {
    const item = this.items[index];
    if (item?.kind !== 'request' || !item.sent) return undefined;
    const tools = Array.isArray(item.sent.tools) ? item.sent.tools : [];
    const system = item.sent.messages.filter((m) => {
      const role = (m as { role?: unknown } | null)?.role;
      return role === 'system' || role === 'developer';
    });
    const calls = item.toolCallIds.map((id) => {
      const tool = this.tools.get(callKey(item.agentPath, id));
      return { id, type: 'function', function: { name: tool?.name ?? '', arguments: tool?.arguments ?? '' } };
    });
    const response = {
      ...(item.requestId !== undefined && { id: item.requestId }),
      ...(item.model !== undefined && { model: item.model }),
      ...(item.finishReason !== undefined && { finish_reason: item.finishReason }),
      ...(item.inputTokens !== undefined && {
        usage: { input_tokens: item.inputTokens, output_tokens: item.outputTokens ?? 0 },
      }),
      message: {
        role: 'assistant',
        content: item.text,
        ...(item.reasoning && { reasoning: item.reasoning }),
        ...(calls.length && { tool_calls: calls }),
      },
      ...(item.error !== undefined && { error: item.error }),
    };
    return { system, tools, body: item.sent, response };
  }

  /** The run as the test export reads it. */
  recorded(): RecordedRun {
    // An agent's run is replayed by its own tool's recorded answer: the export is the root run's.
    const results: RecordedRun['results'] = {};
    for (const tool of this.tools.values())
      if (tool.response !== undefined && !tool.agentPath)
        results[tool.callId] = {
          name: tool.name,
          response: tool.response,
          ...(tool.outcome ? { outcome: tool.outcome } : {}),
        };
    const turns = this.items
      .filter((item): item is LiveRequest => item.kind === 'request' && !item.agentPath)
      .map((request, i, all) => ({
        text: request.text,
        reasoning: request.reasoning,
        toolCalls: request.toolCallIds.map((id) => {
          const tool = this.tools.get(id)!;
          return { id, name: tool.name, arguments: tool.arguments };
        }),
        ...(request.finishReason ? { finishReason: request.finishReason } : {}),
        ...(request.error !== undefined ? { failed: true } : {}),
        ...(request.inputTokens !== undefined
          ? { usage: { inputTokens: request.inputTokens, outputTokens: request.outputTokens ?? 0 } }
          : {}),
        ...(this.refusal !== undefined && i === all.length - 1 ? { refusal: this.refusal } : {}),
      }));
    const waited = [...this.tools.values()].filter((tool) => tool.waited && !tool.agentPath).map((tool) => tool.callId);
    return {
      runId: this.runId,
      ...(this.model ? { model: this.model } : {}),
      input: this.input,
      turns,
      results,
      decisions: this.decisions,
      ...(waited.length ? { waited } : {}),
      ...(this.stoppedBy?.length ? { stoppedBy: this.stoppedBy } : {}),
      ...(this.limits && Object.keys(this.limits).length ? { limits: this.limits } : {}),
      ...(this.typedOutput ? { typedOutput: true } : {}),
      ...(this.stopReason ? { stopReason: this.stopReason } : {}),
      ...(this.text !== undefined ? { text: this.text } : {}),
    };
  }

  private request(at: number, path?: AgentPath): LiveRequest {
    this.touch(at);
    const key = runKey(path);
    let request = this.open.get(key);
    if (!request) {
      request = {
        kind: 'request',
        index: this.items.length,
        startedAt: at,
        text: '',
        reasoning: '',
        toolCallIds: [],
        ...(this.model && !path?.length ? { model: this.model } : {}),
        ...(path?.length ? { agentPath: [...path] } : {}),
      };
      this.open.set(key, request);
      this.items.push(request);
    }
    // Over a queue a request's end is not reported: the last thing seen of it stands in.
    if (request.durationMs === undefined) request.endedAt = at;
    return request;
  }

  private touch(at: number): void {
    if (at > this.updatedAt) this.updatedAt = at;
  }
}

/** An entry as the page gets it. */
function view(item: LiveItem, max: number, open: ReadonlyMap<string, LiveRequest>): TimelineItem {
  if (item.kind === 'status') return item;
  if (item.kind === 'request') {
    const { toolCallIds: _ids, text, reasoning, model, sent, requestId: _id, ...rest } = item;
    return {
      ...rest,
      hasExchange: sent !== undefined,
      ...(model !== undefined ? { model: nameText(model) } : {}),
      live: open.get(runKey(item.agentPath)) === item,
      text: shown(text, max),
      reasoning: shown(reasoning, max),
    };
  }
  const { arguments: args, response, modelResponse, name, waited, ...rest } = item;
  return {
    ...rest,
    ...(waited ? { waited } : {}),
    name: nameText(name),
    arguments: shown(args, max),
    ...(response !== undefined ? { response: shown(response, max) } : {}),
    ...(modelResponse !== undefined ? { modelResponse: shown(modelResponse, max) } : {}),
  };
}

/** Whether a run in `status` has ended. */
function ended(status: DevtoolsRunStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function withDefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
