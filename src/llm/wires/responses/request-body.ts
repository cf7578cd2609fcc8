import type { ResponseCreateParams } from 'openai/resources/responses/responses';
import { UnsupportedWireFieldError } from '../../../errors/unsupported-wire-field.error';
import type { LLMRequestBody } from '../../response/response-types';
import { toResponsesInput } from './input-items';

/**
 * Chat fields with no Responses meaning, each with the value that asks for nothing (and so may stay). Any other
 * value of them is refused rather than dropped: the caller asked for something this wire cannot give.
 */
const REFUSED_FIELDS: Record<string, (value: unknown) => boolean> = {
  n: (v) => v === 1,
  logit_bias: isEmptyObject,
  stop: (v) => v === '' || (Array.isArray(v) && v.length === 0),
  logprobs: (v) => v === false,
  top_logprobs: (v) => v === 0,
  frequency_penalty: (v) => v === 0,
  presence_penalty: (v) => v === 0,
  seed: () => false,
  audio: () => false,
  modalities: (v) => Array.isArray(v) && v.every((m) => m === 'text'),
  prediction: () => false,
  web_search_options: () => false,
  functions: (v) => Array.isArray(v) && v.length === 0,
  function_call: () => false,
};

/** Fields the wire itself sets or translates. */
const HANDLED_FIELDS = new Set([
  'messages',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
  'verbosity',
  'response_format',
  'tool_choice',
  'tools',
]);

/**
 * The Responses API body for a chat-shaped request: the history as input items, the chat fields mapped to their
 * Responses names, stateless (`store: false`, encrypted reasoning asked back). A field the Responses API has no
 * meaning for throws {@link UnsupportedWireFieldError} naming every one of them, before anything is sent. Fields
 * neither wire knows (a provider's own) go through as they are.
 *
 * @internal
 */
export function toResponsesBody(body: LLMRequestBody, stream: boolean): ResponseCreateParams {
  const refused: string[] = [];
  const out: Record<string, unknown> = { store: false, include: ['reasoning.encrypted_content'] };
  const source = body as unknown as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value === undefined || value === null || HANDLED_FIELDS.has(key)) continue;
    const allowed = REFUSED_FIELDS[key];
    if (allowed && Object.hasOwn(REFUSED_FIELDS, key)) {
      if (!allowed(value)) refused.push(key);
    } else if (key !== '__proto__') {
      // `temperature`, `top_p`, `parallel_tool_calls`, `metadata`, `service_tier`, `user`, `store`, the prompt-cache
      // and safety fields mean the same there; a provider's own fields go through as they would on the chat wire.
      out[key] = value;
    }
  }
  const input = toResponsesInput(body.messages, refused);
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null) out.max_output_tokens = maxTokens;
  if (body.reasoning_effort !== undefined && body.reasoning_effort !== null)
    out.reasoning = { ...(out.reasoning as object | undefined), effort: body.reasoning_effort };
  const format = body.response_format ? textFormat(body.response_format) : undefined;
  if (format || (body.verbosity !== undefined && body.verbosity !== null))
    out.text = {
      ...(out.text as object | undefined),
      ...(format && { format }),
      ...(body.verbosity !== undefined && body.verbosity !== null && { verbosity: body.verbosity }),
    };
  if (body.tools?.length) out.tools = body.tools.map((tool, index) => toResponsesTool(tool, index, refused));
  if (body.tool_choice !== undefined && body.tool_choice !== null)
    out.tool_choice = toResponsesToolChoice(body.tool_choice, refused);
  if (refused.length) throw new UnsupportedWireFieldError(refused);
  out.input = input;
  out.stream = stream;
  return out;
}

type ChatTool = NonNullable<LLMRequestBody['tools']>[number];

/**
 * `{ type: 'function', name, description, parameters, strict }`, `strict` always explicit (missing means true there);
 * a custom tool as `{ type: 'custom', name, description, format }`.
 */
function toResponsesTool(tool: ChatTool, index: number, refused: string[]): unknown {
  if (tool.type === 'custom') {
    const { name, description, format } = tool.custom;
    return {
      type: 'custom',
      name,
      ...(description !== undefined && { description }),
      ...(format !== undefined && { format: responsesFormat(format) }),
    };
  }
  if (tool.type !== 'function') {
    refused.push(`tools[${index}] (type "${String((tool as { type?: unknown }).type)}")`);
    return undefined;
  }
  const fn = tool.function;
  return {
    type: 'function',
    name: fn.name,
    ...(fn.description !== undefined && { description: fn.description }),
    // A chat tool without parameters takes none; the Responses API wants that said.
    parameters: fn.parameters ?? { type: 'object', properties: {} },
    strict: fn.strict === true,
  };
}

/** A custom tool's input format there: chat's `{ type: 'grammar', grammar: { definition, syntax } }` comes up a level. */
function responsesFormat(format: NonNullable<Extract<ChatTool, { type: 'custom' }>['custom']['format']>): object {
  return format.type === 'grammar' ? { type: 'grammar', ...format.grammar } : { type: format.type };
}

function toResponsesToolChoice(choice: NonNullable<LLMRequestBody['tool_choice']>, refused: string[]): unknown {
  if (typeof choice === 'string') return choice;
  switch (choice.type) {
    case 'function':
      return { type: 'function', name: choice.function.name };
    case 'custom':
      return { type: 'custom', name: choice.custom.name };
    case 'allowed_tools':
      return {
        type: 'allowed_tools',
        mode: choice.allowed_tools.mode,
        tools: choice.allowed_tools.tools.map((t) => {
          const named = t as { type?: unknown; function?: { name?: unknown }; custom?: { name?: unknown } };
          const name = named.function?.name ?? named.custom?.name;
          return name === undefined ? t : { type: named.type, name };
        }),
      };
    default:
      refused.push('tool_choice');
      return undefined;
  }
}

/** `response_format` as `text.format`: a JSON schema's fields come up one level, `json_object` and `text` stay. */
function textFormat(format: NonNullable<LLMRequestBody['response_format']>): object {
  if (format.type !== 'json_schema') return { type: format.type };
  const { name, schema, strict, description } = format.json_schema;
  return {
    type: 'json_schema',
    name,
    ...(schema !== undefined && { schema }),
    ...(strict !== undefined && strict !== null && { strict }),
    ...(description !== undefined && { description }),
  };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}
