import { AgentcallError } from './agentcall.error';

/** One thing wrong with a decorated tool class, located as precisely as the builder can. */
export type ToolDefinitionProblem = {
  /** The class whose instance was passed to `toolsFrom` (`ToolDefinition` for a hand-written tool). */
  readonly className: string;
  /** The tool's name, when the problem is one of a tool's options (a hand-written tool has no class or method). */
  readonly toolName?: string;
  /** The `@Tool` method, when the problem belongs to one. */
  readonly methodName?: string;
  /** The zero-based parameter index, when the problem belongs to one parameter. */
  readonly parameterIndex?: number;
  /** What is wrong and how to fix it. */
  readonly message: string;
};

/**
 * Thrown by `toolsFrom` when decorated classes cannot become tools: a developer mistake, reported before
 * any model sees the tools. `runAgentLoop` returns it (as `error`, before any request) for hand-written tools whose
 * options cannot be kept, such as a `retry` without `idempotent: true`.
 *
 * Every problem of every class passed in is collected first, so one run shows the whole list.
 */
export class ToolDefinitionError extends AgentcallError {
  static {
    this.defineName('ToolDefinitionError');
  }

  /** Every problem found, in class, method and parameter order. */
  readonly problems: readonly ToolDefinitionProblem[];

  constructor(problems: readonly ToolDefinitionProblem[]) {
    super(formatProblems(problems));
    this.problems = problems;
  }
}

function formatProblems(problems: readonly ToolDefinitionProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((problem) => `  - ${locate(problem)}: ${problem.message}`);
  return [`Invalid tool definitions (${count}):`, ...lines].join('\n');
}

function locate({ className, methodName, parameterIndex, toolName }: ToolDefinitionProblem): string {
  if (methodName === undefined && toolName !== undefined) return `tool "${toolName}"`;
  const member = methodName === undefined ? className : `${className}.${methodName}`;
  return parameterIndex === undefined ? member : `${member}, parameter index ${parameterIndex}`;
}
