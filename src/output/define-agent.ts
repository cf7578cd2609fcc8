import type { AgentRunOptions } from '../agentCall/agents/agent-spec';
import { standardInput, taskInput, type AgentInput } from '../agentCall/agents/agent-input';
import { agentTool } from '../agentCall/agents/agent-tool';
import { runCoreLoop } from '../agentCall/run-core-loop';
import type { OutputSpec, OutputStandardSchema } from '../agentCall/state/output-types';
import { standardSchemaOf } from '../definitions/standard/standard-schema-of';
import { createParseParams } from '../definitions/validation/parse-params';
import { ToolDefinitionError } from '../errors/tool-definition.error';
import { TOOL_NAME_PATTERN } from '../constants';
import type { ClassType } from '../metadata/options';
import type { ToolDefinition } from '../toolCall/type';
import { isStandardSchema, jsonSchemaOf, resolveOutput } from './resolve-output';

/** What {@link defineAgent} takes. `I` is the input (default `{ task: string }`), `O` the typed answer. */
export type AgentOptions<I = { task: string }, O = unknown> = AgentRunOptions<I> & {
  /** A class-validator DTO class or a Standard Schema; default `{ task: string }`. */
  input?: ClassType<I> | OutputStandardSchema<I>;
  /** The agent's typed answer (a DTO class or a Standard Schema), sent to the parent's model as JSON. */
  output?: OutputSpec<O>;
};

/**
 * An agent as a tool: a call runs it as a full `runAgentLoop` run of its own (its `instructions` and the input as
 * its history, only its own `tools`, the parent's client, model, wire, caller, abort signal and tracer unless it
 * names its own), and the parent's model reads one tool message: the agent's text, or its `output` as JSON. Its
 * events, usages, pauses and spend reach the parent's run (`agentPath`); see `docs/agents.md`.
 *
 * @example
 * const research = defineAgent({
 *   name: 'research',
 *   description: 'Researches a topic and answers with sources',
 *   instructions: 'You research topics. Cite your sources.',
 *   tools: toolsFrom(new SearchTools()),
 * });
 * await runAgentLoop({ client, body, tools: [research] });
 */
export function defineAgent<I = { task: string }, O = unknown>(options: AgentOptions<I, O>): ToolDefinition<I> {
  const name = options.name;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    throw new ToolDefinitionError([
      { className: String(name), message: 'an agent name must match ^[a-zA-Z0-9_-]{1,64}$' },
    ]);
  }
  const input = readInput<I>(name, options.input);
  const output = options.output === undefined ? undefined : readAgentOutput(name, options.output);
  return agentTool<I>({ ...options, ...input, output }, runCoreLoop);
}

function readInput<I>(name: string, spec: AgentOptions<I>['input']): AgentInput<I> {
  if (spec === undefined) return taskInput(name) as unknown as AgentInput<I>;
  if (typeof spec === 'function') {
    const standard = standardSchemaOf(spec as ClassType<I & object>);
    const parse = createParseParams(name, spec as ClassType);
    return {
      parameters: standard.jsonSchema,
      parseParams: parse as AgentInput<I>['parseParams'],
      userMessage: (value) => JSON.stringify(value),
    };
  }
  if (!isStandardSchema(spec)) {
    throw new ToolDefinitionError([{ className: name, message: 'input must be a DTO class or a Standard Schema v1' }]);
  }
  return standardInput(name, spec, jsonSchemaOf(spec));
}

function readAgentOutput<O>(name: string, spec: OutputSpec<O>) {
  const format = resolveOutput({ body: { model: '', messages: [] }, tools: [], output: spec });
  if (format instanceof Error) throw new ToolDefinitionError([{ className: name, message: format.message }]);
  return format;
}
