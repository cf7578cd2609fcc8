/**
 * Hard ceilings on what one run may spend, counted across resumes (see `docs/budgets.md`). Each key is optional;
 * the run ends with `stopReason: 'budget'` once one is spent, every call the model made answered.
 *
 * - `inputTokens`, `outputTokens`, `totalTokens` (input + output), `costUsd`: spent once the run's model requests
 *   (its summaries included) have reached the amount; no request is made after that, and the calls of the request
 *   that reached it are answered without running.
 * - `toolCalls`: that many calls may run; a call past the n-th is answered without running, and the run ends after
 *   its turn. Reaching n does not end the run: the model may still answer in text.
 */
export type RunBudget = {
  inputTokens?: number;
  outputTokens?: number;
  /** Input and output tokens together. */
  totalTokens?: number;
  toolCalls?: number;
  /** US dollars, priced by `prices` per model: `runAgentLoop` refuses to start when a model has no price. */
  costUsd?: number;
};

/** What a model costs, in US dollars per million tokens. */
export type ModelPrice = {
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache; default `input`. */
  cachedInput?: number;
};

/**
 * What an agent's run asks of the budget of the run that called it (which asks its own caller's in turn): whether
 * it is spent, and whether one more tool call may run.
 *
 * @internal
 */
export type BudgetGate = {
  exhausted(): boolean;
  admit(): boolean;
};
