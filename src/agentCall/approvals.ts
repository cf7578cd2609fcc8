import type { ChatCompletionMessageToolCall } from '../llm/type';
import { parseJsonArgs } from '../toolCall/parse-json-args';
import { findTool } from '../toolCall/run-tool';
import type { ToolDefinition, ToolParseResult } from '../toolCall/type';
import type { PendingCall } from './run-state';

/** The text the model reads for a call a person rejected. */
export const REJECTED_RESPONSE = 'Tool call rejected by the user';

/** The tool message of a call waiting for approval, until a decision replaces it. */
export const AWAITING_APPROVAL_RESPONSE = 'Waiting for the user to approve this call';

/** The model's text for a rejection, with the person's reason when one was given. */
export function rejectionResponse(reason: string | undefined): string {
  return reason ? `${REJECTED_RESPONSE}: ${reason}` : REJECTED_RESPONSE;
}

/**
 * The calls of one turn that must wait for a person, by index (the others run now). A call waits when its tool
 * sets `needsApproval` and its arguments are valid: an unknown tool or invalid arguments are answered by
 * `runTool` as usual, without asking anyone. A predicate that throws counts as "ask": a broken check must not
 * let a guarded call through.
 */
export async function findApprovals(
  calls: readonly ChatCompletionMessageToolCall[],
  tools: ToolDefinition[],
): Promise<(PendingCall | undefined)[]> {
  const pending = new Array<PendingCall | undefined>(calls.length);
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    const tool = findTool(tools, call.function?.name);
    if (!tool?.needsApproval) continue;
    const parsed = parseQuietly(tool, call.function.arguments ?? '');
    if (!parsed) continue;
    if (await needsApproval(tool, call, parsed.data)) pending[i] = { kind: 'approval', call, params: parsed.data };
  }
  return pending;
}

async function needsApproval(tool: ToolDefinition, call: ChatCompletionMessageToolCall, params: unknown) {
  const rule = tool.needsApproval;
  if (typeof rule !== 'function') return Boolean(rule);
  try {
    return Boolean(await rule({ call, params }));
  } catch {
    return true;
  }
}

function parseQuietly(tool: ToolDefinition, rawArgs: string): { data: unknown } | undefined {
  try {
    const parsed: ToolParseResult<unknown> = tool.parseParams
      ? tool.parseParams(rawArgs)
      : { success: true, data: parseJsonArgs(rawArgs) };
    return parsed?.success === true ? { data: parsed.data } : undefined;
  } catch {
    return undefined;
  }
}
