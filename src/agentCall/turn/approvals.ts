import type { ChatCompletionMessageToolCall } from '../../llm/type';
import { toolErrorText } from '../../text/model-text';
import { readCallArgs } from '../../toolCall/repair-arguments';
import { findTool } from '../../toolCall/run-tool';
import type { AnyToolDefinition, RepairArguments, RunToolResult } from '../../toolCall/type';
import type { PendingCall } from '../state/run-state';
import { keptParams } from '../state/kept-params';

/** The text the model reads for a call a person rejected. */
export const REJECTED_RESPONSE = 'Tool call rejected by the user';

/** The model's text for a rejection, with the person's reason when one was given. */
export function rejectionResponse(reason: string | undefined): string {
  return reason ? `${REJECTED_RESPONSE}: ${reason}` : REJECTED_RESPONSE;
}

/**
 * A call found and parsed before it runs: its params (and the arguments they came from, when a repair made them
 * valid), or the result that answers it without running.
 */
export type ParsedCall = { params: unknown; repairedArguments?: string } | RunToolResult;

/** The calls of one turn that wait for a person (by index), and what the others' parse gave, for their run. */
export type TurnApprovals = {
  pending: (PendingCall | undefined)[];
  /** Calls of gated tools that run now, parsed once here: the run uses these params (or this answer). */
  parsed: Map<ChatCompletionMessageToolCall, ParsedCall>;
};

/**
 * The calls of one turn that must wait for a person, by index (the others run now). A call waits when its tool
 * sets `needsApproval` and its arguments are valid: an unknown tool or invalid arguments are answered as `runTool`
 * answers them, without asking anyone. The arguments are parsed once, as `runTool` parses them (the tool's
 * `parseParams`, else the default caps, then a repair when they fail), and the predicate and the run see the same
 * params. A predicate that
 * throws counts as "ask": a broken check must not let a guarded call through.
 */
export async function findApprovals(
  calls: readonly ChatCompletionMessageToolCall[],
  tools: AnyToolDefinition[],
  repairArguments?: RepairArguments,
): Promise<TurnApprovals> {
  const pending = new Array<PendingCall | undefined>(calls.length);
  const parsed = new Map<ChatCompletionMessageToolCall, ParsedCall>();
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    const tool = findTool(tools, call.function?.name);
    if (!tool?.needsApproval) continue;
    const read = await readCallArgs(tool, call, repairArguments);
    if ('outcome' in read || !(await needsApproval(tool, call, read.params))) {
      parsed.set(call, read);
      continue;
    }
    const kept = keptParams(read.params);
    if (kept) pending[i] = { kind: 'approval', call, params: kept.params };
    else parsed.set(call, unkeptResult(call));
  }
  return { pending, parsed };
}

/**
 * The answer to a gated call whose params cannot be kept in the run state: it does not run.
 *
 * @internal
 */
export function unkeptResult(call: ChatCompletionMessageToolCall): RunToolResult {
  return {
    response: toolErrorText(
      `${call.function.name} needs approval, and its arguments cannot be kept while it waits (not JSON data, or past the size, depth or key caps)`,
    ),
    outcome: 'error',
  };
}
async function needsApproval(tool: AnyToolDefinition, call: ChatCompletionMessageToolCall, params: unknown) {
  const rule = tool.needsApproval;
  if (typeof rule !== 'function') return Boolean(rule);
  try {
    return Boolean(await rule({ call, params }));
  } catch {
    return true;
  }
}
