import { DEFAULT_TOOL_CONCURRENCY } from '../../constants';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../../llm/type';
import type { RunToolResult } from '../../toolCall/type';
import type { ParsedCall } from './approvals';
import type { DurableState } from '../state/run-state-snapshot';
import { runToolCalls, type RunToolCallsProps } from './run-tool-calls';
import type { RunEvents } from '../events/observers';
import type { ModelRequestOptions, ToolCallOptions } from './turn-options';

/**
 * The tool calls of one run: each batch goes through `runToolCalls` with the run's tools, signal, limits, hooks
 * and journal. Those are fixed for the run, so they are bound once; the run's identity is not (a restore replaces
 * it), so each batch is handed it.
 *
 * @internal
 */
export class ToolCallRunner {
  /**
   * @param onJournalError where a journal that cannot be read or written is reported: the loop ends the run with
   *   it once the turn is answered.
   */
  constructor(
    private readonly props: Pick<ModelRequestOptions, 'tools'> & ToolCallOptions,
    private readonly signal: AbortSignal | undefined,
    private readonly events: RunEvents,
    private readonly onJournalError: (error: unknown) => void,
    /** The run's budget gate, when it has a budget. */
    private readonly admit?: (call: ChatCompletionMessageToolCall) => boolean,
    /** Where the run sits among agents: its agents room, its calls' key prefix, the calls a paused agent holds. */
    private readonly nesting?: Pick<RunToolCallsProps, 'nest' | 'keyPrefix' | 'held'>,
  ) {}

  /**
   * Run `calls` as the run `identity` names, with `snapshot` as the history they see; results in call order. A call
   * in `parsed` runs with the params found there (or is answered by the result there), without a second parse; a call
   * in `answers` runs with a person's answer to what it asked.
   */
  run(
    calls: ChatCompletionMessageToolCall[],
    snapshot: ChatCompletionMessageParam[],
    identity: Pick<DurableState, 'runId' | 'caller' | 'model'>,
    parsed?: ReadonlyMap<ChatCompletionMessageToolCall, ParsedCall>,
    answers?: RunToolCallsProps['answers'],
  ): Promise<RunToolResult[]> {
    const props = this.props;
    return runToolCalls({
      calls,
      messages: snapshot,
      tools: props.tools,
      signal: this.signal,
      concurrency: props.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY,
      defaultTimeoutMs: props.toolTimeoutMs,
      events: this.events,
      runId: identity.runId,
      caller: identity.caller,
      journal: props.journal,
      onJournalError: this.onJournalError,
      admit: this.admit,
      model: identity.model,
      parsed,
      repairArguments: props.repairArguments,
      ...(answers?.size && { answers }),
      ...this.nesting,
    });
  }
}
