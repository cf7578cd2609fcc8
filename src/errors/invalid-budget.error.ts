import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when `runAgentLoop`'s `budget` or `prices` cannot be kept: a key `budget` does not know (a
 * typo would otherwise leave the run unlimited), a count that is not a non-negative safe integer, an amount or a
 * price that is not a finite non-negative number. The run ends at once with `stopReason: 'error'`; nothing runs.
 *
 * @example
 * const result = await runAgentLoop({ client, body, tools, budget: { toolCall: 3 } as RunBudget });
 * if (InvalidBudgetError.isInstance(result.error)) console.error(result.error.path); // 'budget.toolCall'
 */
export class InvalidBudgetError extends AgentcallError {
  static {
    this.defineName('InvalidBudgetError');
  }

  /** Where the problem is: `budget.toolCalls`, `prices["gpt-5-mini"].input`. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`Cannot keep this budget: ${path} ${problem}`);
    this.path = path;
  }
}
