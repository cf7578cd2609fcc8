import type { LLMClient } from '../../llm/client';
import { createLLMResponse, type LLMResponse } from '../../llm/request';
import type { ChatCompletionMessageParam } from '../../llm/type';
import type { ToolSchema } from '../../llm/tool-schema';
import type { LLMRequestBody } from '../../llm/response/response-types';
import type { RunEvents } from '../events/observers';
import type { ToolSearch } from '../tool-search/tool-search';
import { instructionsOf, withInstructions, withOutputFormat } from '../output/output-request';
import type { OutputFormat } from '../state/output-types';
import type { SummaryTarget } from '../context/summarize';
import type { ResponseEvents } from '../../llm/response/response-types';
import type { ModelRequestOptions, TurnLimits } from './turn-options';

const REQUEST_SCOPE = { kind: 'request' } as const;

/** What a run adds to each of its requests, when it has it. @internal */
export type RequestExtras = {
  /** With deferred tools: what each request sends changes as tools are found. */
  toolSearch?: ToolSearch;
  /** The run's `output`: its structured-output format, or its instructions. */
  output?: OutputFormat;
};

/** The slice of the run's options its model requests are built from. @internal */
export type ModelRequestsOptions = ModelRequestOptions &
  Pick<TurnLimits, 'isAborted'> &
  Pick<ResponseEvents, 'onHookError'>;

/**
 * The main model requests of one run: the body and tools it was started with, sent through its client and
 * signal with the caller's streaming hooks and response limits. Fixed for the run, so built once: each turn
 * only adds the history it owns.
 *
 * @internal
 */
export class ModelRequests {
  /** Fixed for the run, unless tools are deferred: then what the next request sends. */
  private schemas: ToolSchema[] | undefined;
  private readonly body: ModelRequestOptions['body'];
  private readonly hooks: Pick<ResponseEvents, 'onStreaming' | 'onReasoning' | 'onToolCall' | 'onToolParam'>;
  /** The model its requests name. */
  readonly model: string;
  /** The provider its client talks to, when it is not the run's client (a fallback entry's own). */
  provider?: string;
  /** Where its requests go (client, model and wire): a summary of the run goes there too. */
  readonly target: SummaryTarget;
  /** The `output` schema as instructions, for `outputMode: 'instructions'`. */
  private readonly instructions: string | undefined;
  private readonly toolSearch: ToolSearch | undefined;

  constructor(
    private readonly props: ModelRequestsOptions,
    private readonly client: LLMClient,
    private readonly signal: AbortSignal | undefined,
    private readonly events: RunEvents,
    /** What the run adds to each request: the tools found so far, the `output` format. */
    extras: RequestExtras = {},
  ) {
    this.hooks = {
      onStreaming: events.sink('text'),
      onReasoning: events.sink('reasoning'),
      onToolCall: events.sink('toolCall'),
      onToolParam: events.sink('toolParam'),
    };
    const { toolSearch, output } = extras;
    this.toolSearch = toolSearch;
    this.schemas = toolSearch || !props.tools.length ? undefined : props.tools.map((t) => t.schema);
    // `tools` is not part of the body's type, but a plain-JS caller may still pass it: the model must only see `tools`.
    const { tools: _ignored, ...body } = props.body as ModelRequestOptions['body'] & { tools?: unknown };
    this.body = output ? withOutputFormat(body, output) : body;
    this.model = String(body.model);
    this.target = { client, model: this.model, wire: props.wire };
    this.instructions = output?.mode === 'instructions' ? instructionsOf(output) : undefined;
  }

  /**
   * One turn's request over `messages`; `forceAnswer` forbids tools for it (the anti-loop guard). Not async: the
   * loop awaits the request itself, with no extra hop.
   */
  send(messages: ChatCompletionMessageParam[], callIds: Set<string>, forceAnswer: boolean): Promise<LLMResponse> {
    const events = this.events;
    if (this.toolSearch) this.schemas = this.toolSearch.schemas();
    const body = this.bodyFor(messages, forceAnswer);
    if (events.has('requestStart'))
      events.emit(
        'requestStart',
        this.provider === undefined
          ? { model: this.model, body }
          : { model: this.model, provider: this.provider, body },
      );
    if (!events.scoped) return this.request(body, callIds);
    return events.within(REQUEST_SCOPE, () => this.request(body, callIds));
  }

  /** The body of one turn's request, as it is sent (before the wire translates it). */
  private bodyFor(messages: ChatCompletionMessageParam[], forceAnswer: boolean): LLMRequestBody {
    return {
      ...this.body,
      messages: this.instructions === undefined ? messages : withInstructions(messages, this.instructions),
      ...(this.schemas
        ? { tools: this.schemas, tool_choice: forceAnswer ? 'none' : (this.body.tool_choice ?? 'auto') }
        : {}),
    };
  }

  private request(body: LLMRequestBody, callIds: Set<string>): Promise<LLMResponse> {
    const props = this.props;
    return createLLMResponse({
      client: this.client,
      abortSignal: this.signal,
      isAborted: props.isAborted,
      requestOptions: props.requestOptions,
      maxResponseBytes: props.maxResponseBytes,
      maxSseLineBytes: props.maxSseLineBytes,
      streamParser: props.streamParser,
      wire: props.wire,
      ...this.hooks,
      onHookError: props.onHookError,
      callIds,
      body,
    });
  }
}
