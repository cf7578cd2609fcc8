import type { ModelPrice, RunBudget } from '../state/budget-types';

/** The run's budget and the prices it is counted in. */
export type BudgetOptions = {
  /**
   * Hard ceilings on what the run may spend (tokens, tool calls, US dollars), counted across resumes in
   * `state.spent` and `state.usage`: once one is spent the run ends with `stopReason: 'budget'`. See
   * `docs/budgets.md`. A value that cannot be kept ends the run at once with an `InvalidBudgetError`.
   */
  budget?: RunBudget;
  /**
   * What each model costs, in US dollars per million tokens, for `budget.costUsd`: a model the run may use without
   * a price ends the run at once with a `MissingPriceError` (never priced at zero).
   */
  prices?: Record<string, ModelPrice>;
};
