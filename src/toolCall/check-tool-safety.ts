import { ToolDefinitionError, type ToolDefinitionProblem } from '../errors/tool-definition.error';
import type { AnyToolDefinition, ToolDefinition } from './type';
import { toolNameOf } from '../llm/tool-schema';

/** The safety options of a tool, as a `ToolDefinition` and `@Tool` both declare them. */
export type ToolSafetyOptions = Pick<ToolDefinition, 'idempotent' | 'concurrency' | 'retry' | 'repairArguments'>;

/**
 * What is wrong with a tool's safety options, one message each: above all a `retry` on a tool not declared
 * `idempotent: true`, since a blind retry of a call with side effects repeats them (a payment paid twice).
 *
 * @internal
 */
export function toolSafetyProblems({ idempotent, concurrency, retry, repairArguments }: ToolSafetyOptions): string[] {
  const problems: string[] = [];
  if (concurrency !== undefined && !isWholeAtLeast(concurrency, 1))
    problems.push('concurrency must be a whole number of at least 1');
  if (repairArguments !== undefined && typeof repairArguments !== 'function')
    problems.push('repairArguments must be a function');
  if (retry === undefined) return problems;
  if (idempotent !== true)
    problems.push(
      'retry is set but idempotent is not true: a failed call that already had side effects would have them again; declare idempotent: true if running a call twice with the same ctx.idempotencyKey is harmless, or drop retry',
    );
  if (typeof retry !== 'object' || retry === null) return [...problems, 'retry must be an object'];
  if (!isWholeAtLeast(retry.attempts, 1))
    problems.push('retry.attempts must be a whole number of at least 1 (it counts every run, the first included)');
  if (retry.backoffMs !== undefined && !(typeof retry.backoffMs === 'number' && retry.backoffMs >= 0))
    problems.push('retry.backoffMs must be a number of milliseconds of at least 0');
  if (retry.retryOn !== undefined && typeof retry.retryOn !== 'function')
    problems.push('retry.retryOn must be a function');
  return problems;
}

/**
 * The error that refuses a set of hand-written tools whose safety options cannot be kept, naming each tool; none
 * when every tool is fine. `runAgentLoop` returns it before any request.
 *
 * @internal
 */
export function checkToolSafety(tools: readonly AnyToolDefinition[]): ToolDefinitionError | undefined {
  const problems: ToolDefinitionProblem[] = [];
  // Read as a flag: `Array.isArray` would narrow the list to `any[]`.
  const isList: boolean = Array.isArray(tools);
  if (!isList) return undefined;
  for (const tool of tools) {
    if (typeof tool !== 'object' || tool === null) continue;
    const found = toolSafetyProblems(tool);
    if (found.length === 0) continue;
    const toolName = String(tool.schema && toolNameOf(tool.schema));
    for (const message of found) problems.push({ className: 'ToolDefinition', toolName, message });
  }
  return problems.length > 0 ? new ToolDefinitionError(problems) : undefined;
}

function isWholeAtLeast(value: unknown, least: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= least;
}
