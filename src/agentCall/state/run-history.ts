import { callIdsIn } from '../../llm/response/function-calls';
import { estimateMessageTokens, estimateMessagesTokens } from '../../llm/tokens';
import type { ChatCompletionMessageParam } from '../../llm/type';

/**
 * The history of one run: the messages the model is sent, their estimated tokens (each message counted once, as
 * it is added), and what this run produced. Every change bumps `changes`, so a checkpoint can tell whether there
 * is anything new to save.
 *
 * @internal
 */
export class RunHistory {
  messages: ChatCompletionMessageParam[];
  /** Estimated tokens of `messages`. */
  tokens: number;
  /** Only what this run produced: assistant messages, tool messages, and messages tools returned. */
  readonly produced: ChatCompletionMessageParam[] = [];
  /** Bumped on every change to the run's state (the loop bumps it for the state it keeps besides messages). */
  changes = 1;
  /** Every tool-call id in the history: a new call never reuses one (seeded at the first request). */
  private ids?: Set<string>;

  constructor(messages: ChatCompletionMessageParam[]) {
    this.messages = messages;
    this.tokens = estimateMessagesTokens(messages);
  }

  /** Take over `messages` as the whole history (a restore, a compression that knows its own token count). */
  reset(messages: ChatCompletionMessageParam[], tokens = estimateMessagesTokens(messages)): void {
    this.messages = messages;
    this.tokens = tokens;
  }

  /** Add a message this run produced to the history. */
  append(message: ChatCompletionMessageParam): void {
    this.changes++;
    this.messages.push(message);
    this.tokens += estimateMessageTokens(message);
  }

  /** Replace the message at `at` (a placeholder answered on resume), or append when there is none. */
  put(message: ChatCompletionMessageParam, at: number | undefined): void {
    if (at === undefined) return this.append(message);
    this.changes++;
    this.tokens += estimateMessageTokens(message) - estimateMessageTokens(this.messages[at]);
    this.messages[at] = message;
  }

  /** Count `messages` as produced by this run without sending them (tool-internal messages). */
  produce(...messages: ChatCompletionMessageParam[]): void {
    this.produced.push(...messages);
  }

  /** The tool-call ids of the history, seeded once: new calls add theirs as they are made. */
  callIds(): Set<string> {
    return (this.ids ??= callIdsIn(this.messages));
  }
}
