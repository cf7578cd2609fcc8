import type { LLMClient } from '../../llm/client';
import type { LLMResponse } from '../../llm/request';
import { isRetryableModelError } from '../../llm/retryable-error';
import type { ChatCompletionMessageParam } from '../../llm/type';
import type { FallbackEntry } from './fallback-entry';
import { ModelRequests, type ModelRequestsOptions, type RequestExtras } from '../turn/model-requests';
import type { RunEvents } from '../events/observers';
import { reportRequestEnd } from '../events/report-hooks';
import type { RunState } from '../state/run-state';
import type { DurableState } from '../state/run-state-snapshot';
import { providerName } from '../events/run-tracing';

/**
 * The main model requests of a run with a `fallback` list: each request goes to the model the run is on (the
 * primary, `body.model`, until it fails); when it fails with a retryable error before anything of its answer came
 * in, the same request goes to the next entry, and the run stays there. Where the run is lives in its durable state
 * (`model`, `fallbackIndex`), so a checkpoint saves it and a resume goes on from it. Only built when the run has a
 * `fallback` list: a run without one uses {@link ModelRequests} as it is.
 *
 * @internal
 */
export class FallbackRequests {
  /** Position 0 is the primary, position i the entry `fallback[i - 1]`; each built when first used. */
  private readonly chain: (ModelRequests | undefined)[];

  constructor(
    private readonly props: ModelRequestsOptions,
    /** The run's `fallback` list, not empty. */
    private readonly fallback: readonly FallbackEntry[],
    private readonly client: LLMClient,
    private readonly signal: AbortSignal | undefined,
    private readonly events: RunEvents,
    /** The run's durable state now (a resume replaces it). */
    private readonly durable: () => DurableState,
    /** What the run adds to each request (found tools, the `output` format), whichever model it goes to. */
    private readonly extras: RequestExtras,
  ) {
    this.chain = new Array<ModelRequests | undefined>(fallback.length + 1);
    this.chain[0] = new ModelRequests(props, client, signal, events, extras);
  }

  /** The model the run is on: the one that answered (or failed) the last request. */
  get model(): string {
    return this.at(this.position()).model;
  }

  /** Where the run's requests go now: the entry it is on. */
  get target(): ModelRequests['target'] {
    return this.at(this.position()).target;
  }

  /**
   * One turn's request, sent to the model the run is on and then down the list while it fails retryably. Each
   * attempt that is passed over is reported (`requestEnd` with its error, its span); the response handed back is
   * the last attempt's, which the loop reports and counts as the turn's.
   */
  async send(messages: ChatCompletionMessageParam[], callIds: Set<string>, forceAnswer: boolean): Promise<LLMResponse> {
    let position = this.position();
    let requests = this.at(position);
    let res = await requests.send(messages, callIds, forceAnswer);
    while (position + 1 < this.chain.length && fallsBack(res) && !this.aborted()) {
      if (this.events.has('requestEnd')) reportRequestEnd(this.events, requests.model, res);
      position++;
      requests = this.at(position);
      const durable = this.durable();
      durable.model = requests.model;
      durable.fallbackIndex = position - 1;
      res = await requests.send(messages, callIds, forceAnswer);
    }
    return res;
  }

  private position(): number {
    const index = this.durable().fallbackIndex;
    return index === undefined ? 0 : index + 1;
  }

  private at(position: number): ModelRequests {
    const built = this.chain[position];
    if (built) return built;
    const entry = this.fallback[position - 1];
    const props: ModelRequestsOptions = {
      ...this.props,
      body: { ...this.props.body, model: entry.model },
      wire: entry.wire ?? this.props.wire,
      requestOptions: entryRequestOptions(this.props.requestOptions, entry),
    };
    const requests = new ModelRequests(props, entry.client ?? this.client, this.signal, this.events, this.extras);
    if (entry.client) requests.provider = providerName(entry.client);
    return (this.chain[position] = requests);
  }

  private aborted(): boolean {
    return this.signal?.aborted === true || Boolean(this.props.isAborted?.());
  }
}

/**
 * The request options of an entry's requests. Another client is another provider or key: it gets the run's timeout,
 * the headers it configures, and of the run's headers only those `sharedHeaders` names, never the primary's
 * credentials. An entry on the run's client is the same provider: the run's headers, then its own.
 */
function entryRequestOptions(
  options: ModelRequestsOptions['requestOptions'],
  entry: FallbackEntry,
): ModelRequestsOptions['requestOptions'] {
  let headers: Record<string, string> | undefined;
  if (!entry.client) {
    headers = entry.headers ? { ...options?.headers, ...entry.headers } : options?.headers;
  } else {
    const shared = new Set((entry.sharedHeaders ?? []).map((name) => name.toLowerCase()));
    const kept = Object.entries(options?.headers ?? {}).filter(([name]) => shared.has(name.toLowerCase()));
    if (kept.length || entry.headers) headers = { ...Object.fromEntries(kept), ...entry.headers };
  }
  const timeout = options?.timeout;
  if (timeout === undefined && headers === undefined) return undefined;
  return { ...(timeout !== undefined && { timeout }), ...(headers && { headers }) };
}

/**
 * Whether a failed request goes to the next model: a retryable failure (see `isRetryableModelError`) before any of
 * its answer came in. Once text, reasoning or a tool call has reached the hooks, sending the request again would
 * show observers a second answer after part of a first: the error comes back instead, as it does without a list.
 */
function fallsBack(res: LLMResponse): boolean {
  return (
    res.error !== undefined &&
    !res.answerText &&
    !res.reasoningText &&
    !res.toolCalls.length &&
    isRetryableModelError(res.error)
  );
}

/**
 * Where a run with a `fallback` list starts: on the entry its saved state was on (`fallbackIndex`), when the list
 * given now has an entry there naming the same model; otherwise (a fresh run, a state saved on the primary, a list
 * that is now shorter or names another model there) on the primary, `body.model`.
 *
 * @internal
 */
export function fallbackPosition(
  saved: RunState | undefined,
  fallback: readonly FallbackEntry[],
  primary: string,
): Pick<DurableState, 'model' | 'fallbackIndex'> {
  const index = saved?.fallbackIndex;
  if (index !== undefined && index < fallback.length && fallback[index].model === saved!.model) {
    return { model: fallback[index].model, fallbackIndex: index };
  }
  return { model: primary };
}
