import type { UsageItem } from '../../llm/type';
import type { ModelPrice } from '../state/budget-types';

const PER_MILLION = 1_000_000;

/** The slice of the run's options that names its models. */
export type BudgetModelsOptions = {
  readonly body: { readonly model: unknown };
  readonly fallback?: readonly { readonly model: string }[];
  readonly compression?: { readonly model?: string };
};

/**
 * Every model a run may send a request to, in the order it may use them: `body.model`, its `fallback` entries'
 * models, then the model its summaries use. What a `costUsd` budget needs a price for.
 *
 * @internal
 */
export function budgetModels(props: BudgetModelsOptions): string[] {
  const models = [String(props.body.model)];
  for (const entry of props.fallback ?? []) models.push(entry.model);
  const summaries = props.compression?.model;
  if (summaries !== undefined) models.push(summaries);
  return models;
}

/**
 * The first of `models` that `prices` has no own entry for, or `undefined` when each has one.
 *
 * @internal
 */
export function missingPrice(
  models: readonly string[],
  prices: Readonly<Record<string, ModelPrice>> | undefined,
): string | undefined {
  for (const model of models) if (priceOf(prices, model) === undefined) return model;
  return undefined;
}

/** The price of `model`, read as an own entry only (a model named `constructor` is not priced by `Object`). */
export function priceOf(
  prices: Readonly<Record<string, ModelPrice>> | undefined,
  model: string,
): ModelPrice | undefined {
  return prices !== undefined && Object.prototype.hasOwnProperty.call(prices, model) ? prices[model] : undefined;
}

/**
 * What one request cost in US dollars: its input tokens less the cached ones at `input`, the cached ones at
 * `cachedInput` (else `input`), its output tokens at `output`. Cached tokens are a part of the input, never more.
 *
 * @internal
 */
export function requestCost(usage: UsageItem, price: ModelPrice): number {
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedTokens ?? 0, input);
  const output = usage.outputTokens ?? 0;
  return (
    ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + output * price.output) / PER_MILLION
  );
}
