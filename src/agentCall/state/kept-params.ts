import { DEFAULT_MAX_ARGS_LENGTH } from '../../constants';
import { safeParseJsonArgs } from '../../toolCall/parse-json-args';

/** The tool message of a call waiting for approval, until a decision replaces it. */
export const AWAITING_APPROVAL_RESPONSE = 'Waiting for the user to approve this call';

/**
 * The params a paused call keeps in the run state, as JSON data within the argument caps (forbidden keys dropped):
 * what a state holds must always serialise, and what a resumed call runs with is read from it the same way.
 * `undefined` when they cannot be kept (a cycle, a `BigInt`, past a cap).
 *
 * @internal
 */
export function keptParams(params: unknown): { params: unknown } | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(params);
  } catch {
    return undefined;
  }
  if (text === undefined) return { params: undefined };
  const read = safeParseJsonArgs(text, { maxLength: DEFAULT_MAX_ARGS_LENGTH });
  return read.success ? { params: read.data } : undefined;
}
