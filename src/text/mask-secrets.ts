import { SECRET_NAME, SECRET_RULES, type SecretRule } from './secret-rules';

type CompiledRule = { readonly regex: RegExp; readonly rule: SecretRule };

const COMPILED: readonly CompiledRule[] = SECRET_RULES.map((rule) => ({
  regex: new RegExp(rule.pattern, `g${rule.flags ?? ''}`),
  rule,
}));

/**
 * Mask what must never reach a model or a log: URLs (credentials and query strings ride in them), private keys,
 * JWTs, vendor API keys and tokens (OpenAI, Anthropic, Stripe, GitHub, AWS, Slack, …), `Bearer`/`Basic`
 * credentials, and values given to secret-holding names (`clientSecret=…`, `"dbPassword": "…"`), raw,
 * JSON-escaped or URL-encoded (once or twice). A name followed by a validation message instead of a value
 * (`password: password must be a string`, `token: required`) is left as it is, so the model can read what to fix.
 *
 * Runs in time linear in the text, whatever the text (see `SECRET_RULES`). Mask text after cutting it to what
 * will be sent, with a margin: `modelSafeText` does both.
 *
 * @example maskSecrets('GET https://user:pw@api.x/v1 failed') // 'GET https://[redacted] failed'
 */
export function maskSecrets(text: string): string {
  let masked = typeof text === 'string' ? text : '';
  for (const { regex, rule } of COMPILED) {
    regex.lastIndex = 0;
    if (!regex.test(masked)) continue;
    regex.lastIndex = 0;
    masked = rule.verify
      ? masked.replace(regex, (...args: unknown[]) => {
          const match = args[0] as string;
          const groups = args[args.length - 1] as Record<string, string | undefined>;
          const start = args[args.length - 3] as number;
          const input = args[args.length - 2] as string;
          return passes(rule, match, groups, input, start)
            ? rule.replacement.replace(/\$<(\w+)>/g, (_, name: string) => groups[name] ?? '')
            : match;
        })
      : masked.replace(regex, rule.replacement);
  }
  return masked;
}

const SECRET_NAME_REGEX = new RegExp(SECRET_NAME, 'i');

/**
 * Whether a field name is one whose value is a secret (`password`, `clientSecret`, `refresh_token`, `x-api-key`):
 * the names {@link maskSecrets} masks values after.
 *
 * @internal
 */
export function holdsSecret(name: string): boolean {
  return SECRET_NAME_REGEX.test(name);
}

/**
 * `text` with every place it repeats `value` as a whole token (not inside a longer word) replaced by
 * `[redacted]`: for a message that echoes the value of a secret-holding field (`password hunter2 is too short`),
 * where the value may have no shape the rules know. Linear in the text.
 *
 * @internal
 */
export function maskValue(text: string, value: string): string {
  if (!value) return text;
  let out = '';
  let from = 0;
  // Occurrences are looked for one after another, never overlapping: a value that overlaps itself (`aaaa`) must
  // not be compared again at every character.
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
    const end = at + value.length;
    if (joins(text, at - 1, value, 0) || joins(text, end, value, value.length - 1)) continue;
    out += `${text.slice(from, at)}[redacted]`;
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

const WORD_CHAR = /[A-Za-z0-9_]/;

/** Whether the character of `text` at `at` and the value's own edge character are both word characters. */
function joins(text: string, at: number, value: string, edge: number): boolean {
  return at >= 0 && at < text.length && WORD_CHAR.test(text[at]) && WORD_CHAR.test(value[edge]);
}

function passes(
  rule: SecretRule,
  match: string,
  groups: Record<string, string | undefined>,
  input: string,
  start: number,
): boolean {
  if (rule.verify === 'not-a-field-mention')
    return !isFieldMention(groups.value ?? '', input, start, start + match.length);
  // `Basic <base64(user:password)>`: prose such as "Basic authentication" decodes to no colon.
  const encoded = match.replace(/^[A-Za-z]+(?:\s+|%(?:25)?20|\+)/, '');
  return Buffer.from(encoded, 'base64').toString('latin1').includes(':');
}

/**
 * Words that open or make up a validation message. After a secret-holding name they are the message, not a
 * value: `secret: must be a string`, `apiKey: property apiKey should not exist`, `token: required`.
 */
const MESSAGE_WORDS = new Set(
  (
    'a an are array boolean can cannot contains does each empty expected expired has have incorrect ' +
    'integer invalid is may missing must none not null number object property required should string the ' +
    'too undefined unknown was were will wrong'
  ).split(' '),
);

/**
 * Whether the "value" after a secret-holding name is a validation message rather than a secret: a message word,
 * or the field's own name followed by one (`password: password must be a string`, the `path: message` lines of
 * class-validator, whose messages start with the property's name). Reads at most a few dozen characters around
 * the match, so masking stays linear.
 */
function isFieldMention(value: string, input: string, start: number, end: number): boolean {
  // Message words and field names are short; anything longer is a value.
  if (value.length > 2 * MAX_IDENTIFIER) return false;
  const word = value.replace(/[.:!?]{1,4}$/, '').toLowerCase();
  if (MESSAGE_WORDS.has(word)) return true;
  if (word !== identifierAt(input, start).toLowerCase()) return false;
  // `apiKey: apiKey [redacted] is too short`: a message whose echo of the value was already taken out.
  const next = wordAfter(input, end);
  return MESSAGE_WORDS.has(next) || next === '[redacted';
}

const IDENTIFIER_CHAR = /[A-Za-z0-9_$-]/;
const MAX_IDENTIFIER = 64;

/** The identifier that ends where the separator after the name begins (`dbPassword` in `x.dbPassword: …`). */
function identifierAt(input: string, start: number): string {
  let from = start;
  while (from > 0 && start - from < MAX_IDENTIFIER && IDENTIFIER_CHAR.test(input[from - 1])) from--;
  let to = start;
  while (to < input.length && to - start < MAX_IDENTIFIER && IDENTIFIER_CHAR.test(input[to])) to++;
  return input.slice(from, to);
}

/** The lower-case word (or `[redacted`) after a few spaces at `end`, or `''`. */
function wordAfter(input: string, end: number): string {
  const next = /^ {1,4}([A-Za-z]{1,12}\b|\[redacted)/.exec(input.slice(end, end + 20));
  return next ? next[1].toLowerCase() : '';
}
