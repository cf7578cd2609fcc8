/**
 * What a field's description says instead of a keyword its profile leaves out, so the model still learns the
 * rule; `undefined` for keywords that are not worth a sentence on every field (`additionalProperties: false`: the
 * listed properties already say it, and validation names an unknown key when the model sends one).
 *
 * @example stateKeyword('maximum', 7) // 'at most 7'
 *
 * @internal
 */
export function stateKeyword(keyword: string, value: unknown): string | undefined {
  switch (keyword) {
    case 'minimum':
      return `at least ${String(value)}`;
    case 'maximum':
      return `at most ${String(value)}`;
    case 'exclusiveMinimum':
      return `greater than ${String(value)}`;
    case 'exclusiveMaximum':
      return `less than ${String(value)}`;
    case 'minLength':
      return `at least ${count(value, 'character')}`;
    case 'maxLength':
      return `at most ${count(value, 'character')}`;
    case 'minItems':
      return `at least ${count(value, 'item')}`;
    case 'maxItems':
      return `at most ${count(value, 'item')}`;
    case 'uniqueItems':
      return value === true ? 'no duplicate items' : undefined;
    case 'pattern':
      return `matches pattern ${String(value)}`;
    case 'format':
      return `format: ${String(value)}`;
    case 'enum':
      return `one of: ${list(value)}`;
    case 'default':
      return `default: ${JSON.stringify(value)}`;
    case 'examples':
      return `for example: ${list(value)}`;
    case '$ref':
      return `an object with the same fields as ${refName(value)}`;
    default:
      return undefined;
  }
}

function count(value: unknown, noun: string): string {
  return `${String(value)} ${noun}${value === 1 ? '' : 's'}`;
}

function list(value: unknown): string {
  return Array.isArray(value) ? value.map((item) => JSON.stringify(item)).join(', ') : JSON.stringify(value);
}

function refName(ref: unknown): string {
  if (ref === '#') return 'the arguments object';
  return typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : String(ref);
}
