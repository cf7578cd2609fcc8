import type { LLMResponse } from '../../llm/request';
import type { UsageItem } from '../../llm/type';

/**
 * What one run counts for its result: its main requests (ids, tokens, the last finish reason and answer text),
 * its usage items, and how many requests it made.
 *
 * @internal
 */
export class RunTally {
  readonly usages: UsageItem[] = [];
  readonly requestIds: string[] = [];
  inputTokens = 0;
  outputTokens = 0;
  runTimes = 0;
  finishReason: LLMResponse['finish_reason'] = null;
  /** The last assistant text the model wrote in this run. */
  text = '';

  /** Count a main request's id, tokens, finish reason and answer. */
  countRequest(res: LLMResponse): void {
    this.finishReason = res.finish_reason;
    this.requestIds.push(res.requestId);
    this.inputTokens += res.usage.inputTokens;
    this.outputTokens += res.usage.outputTokens;
    if (res.answerText) this.text = res.answerText;
  }
}
