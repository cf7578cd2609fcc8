import { firstLineSafeText } from '../internal';
import { getErrText } from '../index';

/** Characters of a name the model or an endpoint chose (a tool's, a model's) that the page shows. */
export const MAX_NAME_CHARS = 200;

/**
 * An error as the page shows it: its kind and the first line of its message, secrets masked and cut (an endpoint's
 * error may carry a URL with credentials, a Redis error its password).
 */
export function errorText(error: unknown): string {
  const name = error instanceof Error ? firstLineSafeText(error.name, MAX_NAME_CHARS) : '';
  const text = getErrText(error);
  return name ? `${name}: ${text}` : text;
}

/** A name the model or an endpoint chose, masked and cut to {@link MAX_NAME_CHARS}. */
export function nameText(name: string): string {
  return firstLineSafeText(name, MAX_NAME_CHARS);
}
