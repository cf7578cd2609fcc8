import type { ChatCompletionMessageToolCall } from '../llm/type';
import { modelSafeText } from '../text/model-text';
import { parseToolArgs } from './parse-tool-args';
import type { AnyToolDefinition, RepairArguments, RepairArgumentsInput, RunToolResult } from './type';
import { toolDescriptionOf, toolNameOf } from '../llm/tool-schema';

/** Longest repaired argument text quoted back to the model: enough to see what changed, never a flood. */
const MAX_QUOTED_CHARS = 500;

/** A call's params, and the arguments they came from when a repair made them valid. */
export type ReadArgs = { params: unknown; repairedArguments?: string };

/**
 * Parse and validate a call's arguments; when they fail and a repair is at hand (the tool's `repairArguments`, else
 * `fallback`, the run's), ask it once for corrected JSON text and parse and validate that again. Only arguments that
 * passed the tool's own parser come back as params: a repair that returns nothing, throws, or returns text that
 * fails too leaves the call answered with the usual message about the model's own arguments.
 *
 * @internal
 */
export async function readCallArgs(
  tool: AnyToolDefinition,
  call: ChatCompletionMessageToolCall,
  fallback?: RepairArguments,
): Promise<ReadArgs | RunToolResult> {
  const first = parseToolArgs(tool, call);
  const repair = tool.repairArguments ?? fallback;
  if (!('outcome' in first) || typeof repair !== 'function') return first;
  let text: unknown;
  try {
    text = await repair(repairInput(tool, call, first.response));
  } catch {
    // A repair that fails repairs nothing; the model still reads what was wrong with what it sent.
    return first;
  }
  if (typeof text !== 'string') return first;
  const second = parseToolArgs(tool, { ...call, function: { ...call.function, arguments: text } });
  return 'outcome' in second ? first : { params: second.params, repairedArguments: text };
}

/**
 * The result of a call that ran with repaired arguments: the model reads first that its arguments were repaired, and
 * to what, so it can send them right next time.
 *
 * @internal
 */
export function withRepairNote(result: RunToolResult, repairedArguments: string): RunToolResult {
  const quoted = modelSafeText(repairedArguments, MAX_QUOTED_CHARS);
  result.response = `Note: the arguments of this call were invalid and were repaired before it ran, to ${quoted}\n${result.response}`;
  result.repairedArguments = repairedArguments;
  return result;
}

function repairInput(
  tool: AnyToolDefinition,
  call: ChatCompletionMessageToolCall,
  message: string,
): RepairArgumentsInput {
  const { schema } = tool;
  const description = toolDescriptionOf(schema);
  const parameters = schema.type === 'custom' ? undefined : schema.function.parameters;
  return {
    raw: call.function.arguments ?? '',
    issues: issuesOf(message),
    tool: {
      name: toolNameOf(schema),
      ...(description !== undefined && { description }),
      ...(parameters !== undefined && { parameters }),
    },
  };
}

/**
 * The problems in the text the model would read: one per line, without a heading line that only introduces them
 * (`Invalid arguments for tool "x":`).
 */
function issuesOf(message: string): string[] {
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 1 && lines[0].endsWith(':') ? lines.slice(1) : lines;
}
