import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when `runAgentLoop` has a `budget.costUsd` but its `prices` table has no entry for a model
 * the run may use (`body.model`, `compression.model`). The run ends at once with `stopReason: 'error'`, before any
 * request or tool call: a cost ceiling that priced a model at zero would never be reached.
 *
 * @example
 * const result = await runAgentLoop({ client, body, tools, budget: { costUsd: 0.5 }, prices: {} });
 * if (MissingPriceError.isInstance(result.error)) console.error(`add a price for ${result.error.model}`);
 */
export class MissingPriceError extends AgentcallError {
  static {
    this.defineName('MissingPriceError');
  }

  /** The model `prices` has no entry for. */
  readonly model: string;

  constructor(model: string) {
    super(
      `budget.costUsd needs a price for every model the run may use, and prices has none for "${model.slice(0, 200)}"`,
    );
    this.model = model;
  }
}
