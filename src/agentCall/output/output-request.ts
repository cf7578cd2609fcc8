import type { ChatCompletionMessageParam } from '../../llm/type';
import { outputInstructions } from '../../text/output-feedback';
import type { OutputFormat } from '../state/output-types';
import type { LLMRequestBody } from '../../llm/response/response-types';

/** The run's request body: `tools` go out apart, from the run's tools. */
type Body = Omit<LLMRequestBody, 'tools'>;

/**
 * The run's request body with its `output` schema: as `response_format` json_schema (the Responses wire sends it as
 * `text.format`), or unchanged when the schema goes in the instructions. Built once per run.
 *
 * @internal
 */
export function withOutputFormat(body: Body, output: OutputFormat): Body {
  if (output.mode !== 'json_schema') return body;
  return {
    ...body,
    response_format: {
      type: 'json_schema',
      json_schema: { name: output.name, schema: output.schema, strict: output.strict },
    },
  };
}

/**
 * The instructions that carry the `output` schema (`outputMode: 'instructions'`).
 *
 * @internal
 */
export function instructionsOf(output: OutputFormat): string {
  return outputInstructions(output.name, output.schema);
}

/**
 * The messages of one request with the output instructions: appended to a leading system message with text
 * content (several providers accept one system message only, first), or as a system message before the history.
 * Only the request carries them: the history and `RunState` stay as the run made them, so a resume in another mode
 * sends no stale instructions.
 *
 * @internal
 */
export function withInstructions(
  messages: ChatCompletionMessageParam[],
  instructions: string,
): ChatCompletionMessageParam[] {
  const first = messages[0];
  if (first?.role === 'system' && typeof first.content === 'string') {
    return [{ ...first, content: `${first.content}\n\n${instructions}` }, ...messages.slice(1)];
  }
  return [{ role: 'system', content: instructions }, ...messages];
}
