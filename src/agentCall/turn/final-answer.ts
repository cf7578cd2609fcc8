import { DEFAULT_MAX_ARGS_LENGTH } from '../../constants';
import { issueLines, NOT_JSON_LINE } from '../../text/output-feedback';
import { readStrictJson } from '../../toolCall/parse-json-args';
import { toError } from '../../utils/to-error';
import type { OutputFormat } from '../state/output-types';

/** A checked final answer: the validated value, or its problems as `path: message` lines. */
export type FinalAnswerCheck = { readonly ok: true; readonly value: unknown } | { readonly ok: false; lines: string[] };

// The whole answer as one fenced block: ```json … ``` (any info string, or none).
const FENCED = /^```[^\n`]*\n([\s\S]*?)\n?```$/;

/**
 * Read the model's final answer as JSON and validate it against the run's `output`. The answer is JSON, or JSON
 * as the only content of one ``` code fence; anything else (prose, prose around a fence) is not JSON. A schema
 * whose `validate` throws or rejects gives a line with that error's message, like any other problem.
 *
 * @internal
 */
export async function checkFinalAnswer(format: OutputFormat, text: string): Promise<FinalAnswerCheck> {
  const parsed = parseAnswer(text);
  if (!parsed) return { ok: false, lines: [NOT_JSON_LINE] };
  if ('lines' in parsed) return { ok: false, lines: parsed.lines };
  let result;
  try {
    result = await format.validate(parsed.value);
  } catch (error) {
    return { ok: false, lines: issueLines([{ message: toError(error).message }]) };
  }
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, lines: issueLines(result.issues) };
}

/**
 * The answer's JSON, read as tool arguments are (the same caps, checked before the parse; `__proto__`,
 * `constructor` and `prototype` keys dropped), so a schema of any library sees own data keys only.
 */
function parseAnswer(text: string): { value: unknown } | { lines: string[] } | undefined {
  // Over the cap, the answer is refused before even the fence is looked for.
  if (text.length > DEFAULT_MAX_ARGS_LENGTH) return { lines: issueLines([{ message: tooLongText(text.length) }]) };
  const trimmed = text.trim();
  const fenced = FENCED.exec(trimmed);
  const json = fenced ? fenced[1] : trimmed;
  if (!json) return undefined;
  const read = readStrictJson(json);
  if ('data' in read) return { value: read.data };
  return read.reason === 'not_json' ? undefined : { lines: issueLines([{ message: `the answer has ${read.detail}` }]) };
}

function tooLongText(length: number): string {
  return `the answer has ${length} characters, over the limit of ${DEFAULT_MAX_ARGS_LENGTH}`;
}
