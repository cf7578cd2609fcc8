import { InvalidBudgetError } from '../../errors/invalid-budget.error';
import { MissingPriceError } from '../../errors/missing-price.error';
import { budgetModels, missingPrice, type BudgetModelsOptions } from './budget-prices';
import type { ModelPrice, RunBudget } from '../state/budget-types';

/** The slice of the run's options a budget is checked against: the budget, its prices and the models they cover. */
export type BudgetOptions = BudgetModelsOptions & {
  readonly budget?: RunBudget;
  readonly prices?: Readonly<Record<string, ModelPrice>>;
};

const COUNT_KEYS: ReadonlySet<string> = new Set(['inputTokens', 'outputTokens', 'totalTokens', 'toolCalls']);

/**
 * Why the run's `budget` cannot be kept, checked before anything runs: an unknown key, a count that is not a
 * non-negative safe integer, an amount that is not a finite non-negative number, or, with `costUsd`, a price that
 * is missing for a model the run may use ({@link MissingPriceError}) or is not a finite non-negative number.
 * `undefined` when it can be kept.
 *
 * @internal
 */
export function checkBudget(props: BudgetOptions): InvalidBudgetError | MissingPriceError | undefined {
  const budget: unknown = props.budget;
  if (typeof budget !== 'object' || budget === null || Array.isArray(budget))
    return new InvalidBudgetError('budget', 'must be an object');
  for (const [key, value] of Object.entries(budget)) {
    if (value === undefined) continue;
    if (COUNT_KEYS.has(key)) {
      if (!Number.isSafeInteger(value) || (value as number) < 0)
        return new InvalidBudgetError(`budget.${key}`, 'must be a non-negative safe integer');
    } else if (key === 'costUsd') {
      if (!isAmount(value)) return new InvalidBudgetError('budget.costUsd', 'must be a finite non-negative number');
    } else {
      return new InvalidBudgetError(`budget.${key.slice(0, 100)}`, 'is not a budget key');
    }
  }
  if ((budget as RunBudget).costUsd === undefined) return undefined;
  const models = budgetModels(props);
  const missing = missingPrice(models, props.prices);
  if (missing !== undefined) return new MissingPriceError(missing);
  for (const model of models) {
    const price: Record<string, unknown> = { ...props.prices![model] };
    for (const field of ['input', 'output', 'cachedInput']) {
      if (field === 'cachedInput' && price[field] === undefined) continue;
      if (!isAmount(price[field]))
        return new InvalidBudgetError(
          `prices[${JSON.stringify(model.slice(0, 100))}].${field}`,
          'must be a finite non-negative number',
        );
    }
  }
  return undefined;
}

function isAmount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
