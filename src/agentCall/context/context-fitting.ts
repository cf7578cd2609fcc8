import { COMPRESSION_KEEP_SHARE } from '../../constants';
import type { LLMClient } from '../../llm/client';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, UsageItem } from '../../llm/type';
import type { Wire } from '../../llm/wires/wire';
import { callHook, type HookErrorHandler } from '../../utils/call-hook';
import { historyLimit, toolResponseBudget } from './context-budget';
import { compressContext, type CompressedContext } from './compress-context';
import { compressToolResponse } from './compress-tool-response';
import type { SummaryTarget } from './summarize';
import type { CompressContextEvent, ToolCompressEvent } from '../events/event-types';
import type { CompressionOptions } from './context-options';

/** The slice of the run's options that fits its context: compression, the tool-response cap, their hooks, the wire. */
export type ContextFittingOptions = {
  readonly compression?: CompressionOptions;
  readonly maxToolResponseTokens?: number;
  readonly onAfterCompressContext?: (e: CompressContextEvent) => void;
  readonly onToolCompress?: (e: ToolCompressEvent) => void;
  readonly onHookError?: HookErrorHandler;
  /** The run's own wire: where `compression.model` is asked. */
  readonly wire?: Wire;
};

/**
 * Keeps what one run's model reads within its context window: the history is summarised before a request once
 * it nears the window, and a tool response over its share is shortened. Holds no state of the run: the loop
 * passes the history it owns, and takes back what changed.
 *
 * @internal
 */
export class ContextFitting {
  /**
   * @param pushUsages where the summaries' usages go: the loop's own tally, so they are counted and reported as
   *   the run's other usages are.
   */
  constructor(
    private readonly props: ContextFittingOptions,
    /** The run's own client: where `compression.model` is asked. */
    private readonly client: LLMClient,
    /** Where the run's requests go now: summaries follow the run down its `fallback` list. */
    private readonly runTarget: () => SummaryTarget,
    private readonly signal: AbortSignal | undefined,
    private readonly pushUsages: (usages: UsageItem[]) => void,
    /** False once the run may make no more requests (its budget is spent): a response is then cut, not summarised. */
    private readonly mayRequest?: () => boolean,
  ) {}

  /**
   * The response the model reads: shortened when over its share of the context (`historyTokens` is the history
   * as it stands, the turn's `callCount` calls share what is left), reported through `onToolCompress`.
   */
  async fitToolResponse(
    call: ChatCompletionMessageToolCall,
    response: string,
    callCount: number,
    historyTokens: number,
  ): Promise<string> {
    const { compression, maxToolResponseTokens } = this.props;
    const budget = toolResponseBudget({ compression, maxToolResponseTokens, historyTokens, callCount });
    if (budget === undefined) return response;
    const target = this.target();
    const shortened = await compressToolResponse({
      response,
      maxTokens: budget,
      // Without compression options only the explicit cap applies, and it is met by cutting, never by a request.
      client: compression && this.mayRequest?.() !== false ? target.client : undefined,
      model: target.model,
      abortSignal: this.signal,
      wire: target.wire,
    });
    if (!shortened) return response;
    if (shortened.usage) this.pushUsages([shortened.usage]);
    const { onToolCompress, onHookError } = this.props;
    if (onToolCompress) {
      const event = { call, response: shortened.response, originalResponse: response };
      callHook(
        onToolCompress,
        'onToolCompress',
        shortened.usage ? { ...event, usage: shortened.usage } : event,
        onHookError,
      );
    }
    return shortened.response;
  }

  /**
   * The history summarised when its `historyTokens` are over the compression threshold, reported through
   * `onAfterCompressContext`; undefined when it stays as it is (no compression, under the limit, nothing to
   * summarise, or the summary failed). The caller swaps it in: `event.afterTokens` is its size.
   */
  async compressHistory(
    messages: ChatCompletionMessageParam[],
    historyTokens: number,
  ): Promise<CompressedContext | undefined> {
    const compression = this.props.compression;
    if (!compression) return undefined;
    const limit = historyLimit(compression);
    if (historyTokens <= limit) return undefined;
    const { client, model, wire } = this.target();
    const compressed = await compressContext({
      messages,
      client,
      model,
      keepTokens: Math.floor(limit * COMPRESSION_KEEP_SHARE),
      abortSignal: this.signal,
      wire,
    });
    if (!compressed) return undefined;
    this.pushUsages([compressed.usage]);
    const { onAfterCompressContext, onHookError } = this.props;
    if (onAfterCompressContext)
      callHook(onAfterCompressContext, 'onAfterCompressContext', compressed.event, onHookError);
    return compressed;
  }

  /**
   * Where a summary goes: `compression.model` on the run's own client and wire when given, else the model the run is
   * on now, with that model's client and wire (a fallback entry's, once the run has fallen back).
   */
  private target(): SummaryTarget {
    const model = this.props.compression?.model;
    if (model === undefined) return this.runTarget();
    return { client: this.client, model, wire: this.props.wire };
  }
}
