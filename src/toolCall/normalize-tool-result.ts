import { sanitizeUsages } from '../llm/response/usage';
import type { ChatCompletionMessageParam } from '../llm/type';
import { getErrText } from '../text/error-text';
import { toModelText, toolErrorText } from '../text/model-text';
import type { ToolExecuteResult, ToolInteractive } from './type';

/**
 * Make whatever a hand-written `execute` resolved with into a well-formed result, so one sloppy or hostile tool
 * (a bare string, `undefined`, a number in `response`, throwing getters, malformed `usages`) cannot corrupt the
 * message history or break the run. Each field is read once, here; the loop only sees the plain copy.
 */
export function normalizeToolResult(value: unknown): ToolExecuteResult {
  if (value === null || typeof value !== 'object' || !hasResponse(value)) return { response: toModelText(value) };
  const source = value as Record<string, unknown>;
  let response: string;
  try {
    response = toModelText(source.response);
  } catch (error) {
    // A getter that throws is the tool failing: the model reads why, like any other throw.
    return { response: toolErrorText(getErrText(error)) };
  }
  const stop = read(source, 'stop');
  const interactive = read(source, 'interactive');
  const resumeData = isInteractive(interactive) ? read(source, 'resumeData') : undefined;
  const usages = sanitizeUsages(read(source, 'usages'));
  const assistantMessages = keepMessages(read(source, 'assistantMessages'));
  return {
    response,
    ...(stop === true && { stop: true }),
    ...(isInteractive(interactive) && { interactive }),
    ...(resumeData !== undefined && { resumeData }),
    ...(usages?.length && { usages }),
    ...(assistantMessages?.length && { assistantMessages }),
  };
}

function hasResponse(value: object): boolean {
  try {
    return 'response' in value;
  } catch {
    return false;
  }
}

function read(source: Record<string, unknown>, key: string): unknown {
  try {
    return source[key];
  } catch {
    return undefined;
  }
}

function isInteractive(value: unknown): value is ToolInteractive {
  try {
    return typeof value === 'object' && value !== null && typeof (value as ToolInteractive).type === 'string';
  } catch {
    return false;
  }
}

/** Messages a tool hands back: only objects with a string `role` are kept. */
function keepMessages(value: unknown): ChatCompletionMessageParam[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return (value as unknown[]).filter((message): message is ChatCompletionMessageParam => {
    try {
      return (
        typeof message === 'object' && message !== null && typeof (message as { role?: unknown }).role === 'string'
      );
    } catch {
      return false;
    }
  });
}
