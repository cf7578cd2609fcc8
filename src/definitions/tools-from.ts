import { ToolDefinitionError, type ToolDefinitionProblem } from '../errors/tool-definition.error';
import type { ToolDefinition } from '../toolCall/type';
import { bindTool, type ToolsFromOptions } from './bind-tool';
import { getClassTools } from './get-class-tools';
import { classOf } from '../metadata/class-chain';
import type { AgentMetadata } from '../metadata/agent-metadata';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ClassType } from '../metadata/options';
import { agentCycleError, agentFromClass } from './agent-from-class';
import { resolveProfile, SCHEMA_PROFILES } from './profiles/schema-profile';

/**
 * Instances, each refused by the type checker when it is an array, so a list followed by misspelled options
 * (`toolsFrom([a], { strct: true })`) cannot quietly match the spread form.
 */
type NoArrays<T extends object[]> = { [K in keyof T]: T[K] extends readonly unknown[] ? never : T[K] };

export type { ToolsFromOptions };

/**
 * Build `ToolDefinition`s from the `@Tool` methods of class instances, bound to those instances.
 *
 * Arguments classes and parsers are built once per class, schemas once per class and profile, and shared by its
 * instances; only `execute` is bound per instance. Building also completes each arguments class's class-validator
 * metadata with the checks its schema implies (type checks, `@IsOptional`, `@IsIn`, `@ValidateNested` +
 * `@Type`), which only tightens validation to match what the model is shown.
 *
 * Throws {@link ToolDefinitionError} listing every problem of every class (undecorated parameters, types
 * that cannot be reflected, invalid or duplicate names, fields strict mode cannot express), or naming an unknown
 * `profile` before any class is read.
 *
 * @example
 * const tools = toolsFrom(new WeatherTools(api), new FlightTools());
 * const strictTools = toolsFrom([new WeatherTools(api)], { strict: true, timeoutMs: 10_000 });
 * const geminiTools = toolsFrom([new WeatherTools(api)], { profile: 'gemini' });
 */
export function toolsFrom(instances: readonly object[], options?: ToolsFromOptions): ToolDefinition[];
export function toolsFrom<T extends object[]>(...instances: NoArrays<T>): ToolDefinition[];
export function toolsFrom(...args: unknown[]): ToolDefinition[] {
  const [instances, defaults] = Array.isArray(args[0])
    ? [args[0] as readonly unknown[], (args[1] ?? {}) as ToolsFromOptions]
    : [args, {}];
  return buildTools(instances, defaults, []);
}

/** The tools of `toolClass` made with no arguments, inside the agent classes `chain` (an `@Agent`'s tools). */
function toolsOfClass(toolClass: ClassType, chain: readonly AgentMetadata[], defaults: ToolsFromOptions) {
  const meta = getMetadataStorage().getAgent(toolClass);
  if (meta && chain.includes(meta)) throw agentCycleError(chain, meta);
  return buildTools([new toolClass()], defaults, chain);
}

function buildTools(
  instances: readonly unknown[],
  defaults: ToolsFromOptions,
  chain: readonly AgentMetadata[],
): ToolDefinition[] {
  const profileProblem = unknownProfile(defaults.profile);
  if (profileProblem) throw new ToolDefinitionError([profileProblem]);
  const problems: ToolDefinitionProblem[] = [];
  const definitions: ToolDefinition[] = [];
  const owners = new Map<string, string>();
  for (const instance of instances) {
    if (typeof instance !== 'object' || instance === null) {
      problems.push({
        className: typeof instance === 'function' ? instance.name : String(instance),
        message: misuse(instance),
      });
      continue;
    }
    const className = instance.constructor.name;
    const { tools, problems: classProblems } = getClassTools(classOf(instance));
    const agent = getMetadataStorage().getAgent(classOf(instance));
    // The one class problem is "no @Tool methods": an agent class needs none.
    if (!agent) problems.push(...classProblems);
    // An agent class is one tool: its methods are the agent's own tools, not its parent's.
    const into = agent ? [] : definitions;
    for (const tool of tools) {
      const definition = bindTool(tool, instance, defaults);
      const profile = resolveProfile(defaults.profile, tool.strict, defaults.strict);
      problems.push(...tool.problems, ...tool.schemaFor(profile).problems);
      const name = definition.schema.function.name;
      const owner = `${className}.${tool.methodName}`;
      const first = owners.get(name);
      if (first === undefined) owners.set(name, owner);
      else
        problems.push({
          className,
          methodName: tool.methodName,
          message: `duplicate tool name "${name}" (also used by ${first})`,
        });
      into.push(definition);
    }
    if (agent) {
      const toolsOf = (toolClass: ClassType, below: readonly AgentMetadata[]) =>
        toolsOfClass(toolClass, below, defaults);
      definitions.push(agentFromClass(agent, into, toolsOf, chain));
    }
  }
  if (problems.length > 0) throw new ToolDefinitionError(problems);
  return definitions;
}

// Options come from JavaScript and configuration files too, where the type checker cannot refuse a misspelling.
function unknownProfile(profile: unknown): ToolDefinitionProblem | undefined {
  if (profile === undefined || SCHEMA_PROFILES.includes(profile as never)) return undefined;
  return {
    className: 'toolsFrom',
    message: `unknown schema profile ${typeof profile === 'string' ? `"${profile}"` : `of type ${typeof profile}`}; use one of ${SCHEMA_PROFILES.join(', ')}`,
  };
}

function misuse(value: unknown): string {
  if (typeof value === 'function')
    return `a class was passed where an instance is expected; pass new ${value.name || 'YourClass'}(...)`;
  return `${typeof value} was passed where a class instance is expected`;
}
