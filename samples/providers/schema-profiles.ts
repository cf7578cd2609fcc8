import 'reflect-metadata';
import { schemaReport, toolsFrom, type SchemaProfile, type ToolDefinition } from '../../src';
import { CalculatorTools } from '../tools/calculator.tools';
import { TodoStore, TodoTools } from '../tools/todo.tools';

/** The sample tools in the schema dialect of the endpoint they are sent to ('gemini' for Gemini, …). */
export function toolsFor(profile: SchemaProfile): ToolDefinition[] {
  return toolsFrom([new CalculatorTools(), new TodoTools(new TodoStore())], { profile });
}

/** What a profile's schemas do not carry, one line per keyword: print it before deploying, or check it in CI. */
export function describeOmissions(profile: SchemaProfile): string[] {
  return schemaReport([CalculatorTools, TodoTools], { profile }).map(
    (o) =>
      `${o.tool} ${o.path || '(arguments)'}: ${o.keyword} ${JSON.stringify(o.value)} → ${o.statedAs ?? '(not stated)'}`,
  );
}
