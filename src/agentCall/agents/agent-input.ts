import { problemListText } from '../../text/model-text';
import { issueLines } from '../../text/output-feedback';
import { readJsonArgs } from '../../toolCall/parse-json-args';
import type { ToolParseResult } from '../../toolCall/type';
import { isRecord } from '../../utils/is-record';
import type { OutputStandardSchema } from '../state/output-types';

/** The default input of an agent: the task, in words. */
export type AgentTask = { task: string };

/** How an agent reads its input: the JSON Schema its parent's model sees, the parser, and the child's user message. */
export type AgentInput<I> = {
  parameters: Record<string, unknown>;
  parseParams: (rawArgs: string) => ToolParseResult<I>;
  userMessage: (input: I) => string;
};

/**
 * The default input, `{ task: string }`: the child's user message is the task itself.
 *
 * @internal
 */
export function taskInput(name: string): AgentInput<AgentTask> {
  return {
    parameters: {
      type: 'object',
      properties: { task: { type: 'string', description: 'What the agent is to do, in full' } },
      required: ['task'],
      additionalProperties: false,
    },
    parseParams: (raw) =>
      readObject(name, raw, (args) =>
        typeof args.task === 'string'
          ? { success: true, data: { task: args.task } }
          : fail(name, ['task: must be a string']),
      ),
    userMessage: (input) => input.task,
  };
}

/**
 * An input read by a Standard Schema (synchronous validation: a tool's arguments are parsed as one value); the
 * child's user message is the validated input as JSON.
 *
 * @internal
 */
export function standardInput<I>(
  name: string,
  standard: OutputStandardSchema<I>,
  parameters: Record<string, unknown>,
): AgentInput<I> {
  return {
    parameters,
    parseParams: (raw) =>
      readObject(name, raw, (args) => {
        const checked = standard['~standard'].validate(args);
        if (checked instanceof Promise) return fail(name, ['(root): the input schema validates asynchronously']);
        return checked.issues ? fail(name, issueLines(checked.issues)) : { success: true, data: checked.value };
      }),
    userMessage: (input) => JSON.stringify(input),
  };
}

function readObject<I>(
  name: string,
  raw: string,
  then: (args: Record<string, unknown>) => ToolParseResult<I>,
): ToolParseResult<I> {
  const parsed = readJsonArgs(raw);
  if (!('data' in parsed)) return fail(name, [parsed.detail]);
  if (!isRecord(parsed.data)) return fail(name, ['(root): the arguments must be a JSON object']);
  return then(parsed.data);
}

function fail<I>(name: string, lines: readonly string[]): ToolParseResult<I> {
  return { success: false, errorMessage: problemListText(`Invalid arguments for tool "${name}":`, lines) };
}
