import type { Response, ResponseOutputItem, ResponseUsage } from 'openai/resources/responses/responses';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ScriptedFinishReason } from '../types';
import { isObject, type Fields } from './fields';

/** What every copy of one response shares: the events' snapshots and the final object. */
export type ResponseMeta = { id: string; createdAt: number; model: string; request: Fields };

/**
 * A `Response` as the API sends it: no `output_text` (the SDK adds it), `usage: null` until it is known, and the
 * `store` setting, which the SDK's type leaves out.
 */
export type ResponseBody = Omit<Response, 'output_text' | 'usage'> & { usage: ResponseUsage | null; store: boolean };

/** The state of a response at one moment: its status, output, usage and error, if any. */
export type ResponseSnapshot = {
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: ResponseOutputItem[];
  usage: CompletionUsage | null;
  finishReason?: ScriptedFinishReason;
  errorMessage?: string;
};

/**
 * The `Response` object: the non-stream body, and what `response.created`, `response.completed` and the other
 * lifecycle events carry. The request's settings are echoed as OpenAI echoes them, with its defaults for the
 * ones not sent; `store` stays whatever the client asked (`false` for a stateless client).
 */
export function buildResponse(meta: ResponseMeta, snapshot: ResponseSnapshot): ResponseBody {
  const request = meta.request;
  const reasoning = isObject(request.reasoning) ? request.reasoning : {};
  const finished = snapshot.status === 'completed' || snapshot.status === 'incomplete';
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status: snapshot.status,
    background: false,
    completed_at: snapshot.status === 'completed' ? meta.createdAt : null,
    error: snapshot.status === 'failed' ? { code: 'server_error', message: snapshot.errorMessage ?? '' } : null,
    incomplete_details: snapshot.status === 'incomplete' ? { reason: incompleteReason(snapshot.finishReason) } : null,
    instructions: (request.instructions as Response['instructions']) ?? null,
    max_output_tokens: (request.max_output_tokens as number | undefined) ?? null,
    model: meta.model,
    output: snapshot.output,
    parallel_tool_calls: (request.parallel_tool_calls as boolean | undefined) ?? true,
    previous_response_id: (request.previous_response_id as string | undefined) ?? null,
    reasoning: { effort: null, summary: null, ...(reasoning as Response['reasoning']) },
    store: (request.store as boolean | undefined) ?? true,
    temperature: (request.temperature as number | undefined) ?? 1,
    text: (request.text as Response['text']) ?? { format: { type: 'text' } },
    tool_choice: (request.tool_choice as Response['tool_choice']) ?? 'auto',
    tools: (request.tools as Response['tools']) ?? [],
    top_p: (request.top_p as number | undefined) ?? 1,
    truncation: 'disabled',
    usage: finished && snapshot.usage !== null ? responseUsage(snapshot.usage) : null,
    user: request.user as string | undefined,
    metadata: (request.metadata as Response['metadata']) ?? {},
  };
}

/** Chat usage in Responses terms; cached and reasoning tokens are parts of the counts, never added to them. */
export function responseUsage(usage: CompletionUsage): ResponseUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cache_write_tokens: 0, cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens,
  };
}

/** `true` when a reply's finish reason makes its response `incomplete` rather than `completed`. */
export function isIncomplete(finishReason: ScriptedFinishReason): boolean {
  return finishReason === 'length' || finishReason === 'content_filter';
}

function incompleteReason(finishReason: ScriptedFinishReason | undefined): 'max_output_tokens' | 'content_filter' {
  return finishReason === 'content_filter' ? 'content_filter' : 'max_output_tokens';
}
