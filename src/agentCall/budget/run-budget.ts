import { MissingPriceError } from '../../errors/missing-price.error';
import type { ChatCompletionMessageToolCall, UsageItem } from '../../llm/type';
import { toolErrorText } from '../../text/model-text';
import { priceOf, requestCost } from './budget-prices';
import type { BudgetGate, ModelPrice, RunBudget } from '../state/budget-types';
import type { RunSpent } from '../state/run-state';
import type { DurableState } from '../state/run-state-snapshot';

/**
 * What one run's `budget` has spent, across resumes, and whether it may go on: the loop charges it with each model
 * request it makes and asks it before each tool call. Built only when a budget is given; its counts live in the
 * durable state (`spent`, and `usage` for the main requests' tokens), so a checkpoint carries them.
 *
 * @internal
 */
export class BudgetMeter implements BudgetGate {
  private inputTokens = 0;
  private outputTokens = 0;
  private spent: RunSpent = { toolCalls: 0, costUsd: 0 };
  /** Set once the budget kept something from happening: a call not run. The run then ends with `'budget'`. */
  hit = false;
  /** A request answered by a model `prices` has no price for: the cost cannot be kept, the run ends with it. */
  failure?: MissingPriceError;

  constructor(
    private readonly limits: RunBudget,
    private readonly prices: Readonly<Record<string, ModelPrice>> | undefined,
    /** For an agent's run: the budget of the run that called it (which asks its own caller's in turn). */
    private readonly above?: BudgetGate,
  ) {}

  /**
   * Count on from `durable`: a fresh run's, or the one a run resumes with (its `usage` and `spent`). From then on
   * the meter updates `durable.spent` in place.
   */
  bind(durable: DurableState): void {
    const spent = (durable.spent ??= { toolCalls: 0, costUsd: 0 });
    this.spent = spent;
    this.inputTokens = durable.priorUsage.inputTokens + (spent.summaryInputTokens ?? 0);
    this.outputTokens = durable.priorUsage.outputTokens + (spent.summaryOutputTokens ?? 0);
  }

  /**
   * Charge one model request the loop made: a main request (its tokens are kept in `usage`) or a summary (kept in
   * `spent`, which `usage` leaves out). Its cost is priced by the model its usage item names.
   */
  charge(usage: UsageItem, summary: boolean): void {
    const input = usage.inputTokens ?? 0;
    const output = usage.outputTokens ?? 0;
    this.inputTokens += input;
    this.outputTokens += output;
    const spent = this.spent;
    if (summary) {
      spent.summaryInputTokens = (spent.summaryInputTokens ?? 0) + input;
      spent.summaryOutputTokens = (spent.summaryOutputTokens ?? 0) + output;
    }
    if (this.limits.costUsd === undefined) return;
    const model = usage.model ?? '';
    const price = priceOf(this.prices, model);
    if (price === undefined) this.failure ??= new MissingPriceError(model);
    else spent.costUsd += requestCost(usage, price);
  }

  /**
   * Whether a token or cost limit is reached: the next request would go past it, so none is made. Reaching counts:
   * any request costs at least a token.
   */
  exhausted(): boolean {
    const { limits, spent } = this;
    return (
      this.above?.exhausted() === true ||
      this.failure !== undefined ||
      reached(this.inputTokens, limits.inputTokens) ||
      reached(this.outputTokens, limits.outputTokens) ||
      reached(this.inputTokens + this.outputTokens, limits.totalTokens) ||
      reached(spent.costUsd, limits.costUsd)
    );
  }

  /**
   * Before a tool call runs: whether it may, counting it when it may. Not when a token or cost limit is reached,
   * nor past the `toolCalls`-th call; the budget is then hit. Synchronous, so calls started at once are still
   * counted one by one.
   */
  admit(): boolean {
    const limit = this.limits.toolCalls;
    if (this.exhausted() || (limit !== undefined && this.spent.toolCalls >= limit)) {
      this.hit = true;
      return false;
    }
    // Each call of an agent counts toward every ancestor's budget too.
    if (this.above && !this.above.admit()) {
      this.hit = true;
      return false;
    }
    this.spent.toolCalls++;
    return true;
  }

  /** A call the loop answers without asking `admit` (the request that made it spent the budget). */
  refuse(): void {
    this.hit = true;
  }
}

function reached(spent: number, limit: number | undefined): boolean {
  return limit !== undefined && spent >= limit;
}

/**
 * The answer to a call the budget kept from running.
 *
 * @internal
 */
export function budgetSpentText(call: ChatCompletionMessageToolCall): string {
  return toolErrorText(`${call.function.name} was not run because the run's budget is spent`);
}
