import { issueLines, NOT_JSON_LINE } from '../text/output-feedback';
import { toError } from '../utils/to-error';
import type { OutputFormat } from './output-types';

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
  let result;
  try {
    result = await format.validate(parsed.value);
  } catch (error) {
    return { ok: false, lines: issueLines([{ message: toError(error).message }]) };
  }
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, lines: issueLines(result.issues) };
}

function parseAnswer(text: string): { value: unknown } | undefined {
  const trimmed = text.trim();
  const fenced = FENCED.exec(trimmed);
  const json = fenced ? fenced[1] : trimmed;
  if (!json) return undefined;
  try {
    return { value: JSON.parse(json) };
  } catch {
    return undefined;
  }
}
