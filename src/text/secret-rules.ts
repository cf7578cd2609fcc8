/**
 * One masking rule, as data: a regular expression source and what replaces each match.
 *
 * Every pattern must run in linear time on any input, because the model controls the text it is run on:
 * - a variable-length run is either bounded by a small constant, or it is the last element of the pattern;
 * - a pattern whose unbounded run could be followed by something that fails starts with a lookbehind that only
 *   lets it begin where a run of its own characters begins, so each run is scanned once, not once per character;
 * - no nested quantifiers, no alternation whose branches can match the same text at the same place.
 *
 * @internal
 */
export type SecretRule = {
  /** A stable name, for tests and docs. */
  readonly id: string;
  /** The rule set the shape comes from. */
  readonly source: string;
  /** `RegExp` source; compiled once with the `g` flag plus {@link SecretRule.flags}. */
  readonly pattern: string;
  readonly flags?: 'i';
  /** Replacement template (`$<group>` keeps a named group). */
  readonly replacement: string;
  /**
   * A check on the match; a match that fails it is left as it is. `base64-credentials`: the token decodes to
   * `user:password`. `not-a-field-mention`: the value is not a word of a validation message (`password: password
   * must be a string` names the field; it holds no value).
   */
  readonly verify?: 'base64-credentials' | 'not-a-field-mention';
};

/** A `%` as it appears URL-encoded once (`%3D`) or twice (`%253D`, a URL inside a query string). */
const PCT = String.raw`%(?:25)?`;
/** Characters of a quote as it appears raw, JSON-escaped (`\"`, `\\\"`) or URL-encoded (`%22`, `%27`). */
const QUOTE = String.raw`(?:\\{0,3}["'\x60]|${PCT}2[27])`;
/** `:` or `=`, raw or URL-encoded, with a little space around it. */
const ASSIGN = String.raw`\s{0,4}(?:[:=]|${PCT}3[AaDd])\s{0,4}`;
/** The space after an auth scheme: spaces, `%20` or `+`. */
const SCHEME_SPACE = String.raw`(?:\s{1,4}|${PCT}20|\+)`;
/** An auth scheme and the space after it (`Bearer `, `Basic%20`), kept when the credential after it is masked. */
const SCHEME = String.raw`(?:(?:Basic|Bearer|Digest|Token)${SCHEME_SPACE})`;
/** Where a token may begin: not in the middle of a run of token characters. */
const TOKEN_START = String.raw`(?<![A-Za-z0-9_-])`;

/**
 * Names that hold secrets (clientSecret, dbPassword, refresh_token, x-api-key, AccountKey), as a `RegExp` source
 * matched case-insensitively wherever it starts in a name, so any prefix (`client`, `db`, `refresh`) is covered.
 *
 * @internal
 */
export const SECRET_NAME = String.raw`(?:secret|pass(?:w(?:or)?d|phrase)?|pwd|token|api[_-]?key|access[_-]?key|account[_-]?key|private[_-]?key|auth(?:orization)?|credentials?|cookie|session[_-]?id|signature|conn(?:ection)?[_-]?str(?:ing)?)(?:[_-]?(?:access[_-]?key|key|id|value|hash|data))?`;

/**
 * The shapes masked in model-facing text, ported from secretlint's recommended preset (aws, gcp, privatekey, npm,
 * basicauth, slack, sendgrid, shopify, github, openai, anthropic, linear, 1password, database-connection-string)
 * and the token prefixes of the gitleaks default rules (gitlab, stripe, hugging face, JWT, generic-api-key),
 * rewritten to the linear form above. Applied in order; earlier rules see the raw text. `source` names the
 * original rule of each.
 *
 * Attribution: secretlint, https://github.com/secretlint/secretlint (MIT License, © azu), package
 * `@secretlint/secretlint-rule-preset-recommend`; gitleaks, https://github.com/gitleaks/gitleaks (MIT License,
 * © Zachary Rice), `config/gitleaks.toml`. The patterns here are rewritten, not copied: theirs are written for
 * files a person committed, these for text a hostile model controls, so they must never backtrack.
 *
 * @internal
 */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    id: 'private-key',
    source: 'secretlint:privatekey',
    // The body runs to the END line or to the first `-`, which base64 never contains; one line or many.
    pattern: String.raw`-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[^-]*(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?`,
    replacement: '[redacted-private-key]',
  },
  {
    id: 'url',
    source: 'secretlint:database-connection-string',
    // Credentials and query strings ride in URLs; the scheme is kept. Raw, JSON-escaped or URL-encoded `://`.
    pattern: String.raw`(?<![A-Za-z0-9+.-])(?<scheme>[A-Za-z][A-Za-z0-9+.-]{0,31})(?<sep>:\/\/|:\\\/\\\/|${PCT}3[Aa]${PCT}2[Ff]${PCT}2[Ff])[^\s'"<>)\x60]+`,
    replacement: '$<scheme>$<sep>[redacted]',
  },
  {
    id: 'keyed-quoted-value',
    source: 'gitleaks:generic-api-key',
    // `name: "value with spaces"`: a value opened by a quote (raw or JSON-escaped) runs to the next quote,
    // backslash or line break, so every word of it is masked, not the first one alone. The run ends the pattern,
    // so nothing after it can fail and make it scan again.
    pattern:
      String.raw`(?<name>${SECRET_NAME})(?<sep>${QUOTE}?${ASSIGN}\\{0,3}["'\x60])(?!${SCHEME}?\[redacted)` +
      String.raw`(?<scheme>${SCHEME})?(?<value>[^"'\x60\\\r\n]+)`,
    flags: 'i',
    replacement: '$<name>$<sep>$<scheme>[redacted]',
    verify: 'not-a-field-mention',
  },
  {
    id: 'keyed-value',
    source: 'gitleaks:generic-api-key',
    // `name: value`, `name=value`, `"name":"value"` for names that hold secrets, camelCase or snake_case
    // (clientSecret, dbPassword, refresh_token, x-api-key, AccountKey): the name is matched wherever it
    // starts, so any prefix (`client`, `db`, `refresh`) is covered. The auth scheme after it is kept.
    pattern:
      String.raw`(?<name>${SECRET_NAME})` +
      String.raw`(?<sep>${QUOTE}?${ASSIGN}${QUOTE}?)(?!${SCHEME}?${QUOTE}?\[redacted)(?<scheme>${SCHEME})?(?<value>[^\s"'\x60\\,;&<>)}\]]+)`,
    flags: 'i',
    replacement: '$<name>$<sep>$<scheme>[redacted]',
    verify: 'not-a-field-mention',
  },
  {
    id: 'bearer',
    source: 'secretlint:basicauth',
    // Any run of token characters, not only RFC 6750's: a hand-made token may hold `$`, `!` or `%`.
    pattern: String.raw`(?<![A-Za-z0-9])(?<scheme>Bearer)${SCHEME_SPACE}(?!\[redacted)[^\s"'\x60\\,;<>()[\]{}]{8,}`,
    flags: 'i',
    replacement: '$<scheme> [redacted]',
  },
  {
    id: 'basic-auth',
    source: 'secretlint:basicauth',
    pattern: String.raw`(?<![A-Za-z0-9])(?<scheme>Basic)${SCHEME_SPACE}[A-Za-z0-9+/]{4,}={0,2}`,
    flags: 'i',
    replacement: '$<scheme> [redacted]',
    verify: 'base64-credentials',
  },
  {
    id: 'credentials-before-host',
    source: 'secretlint:database-connection-string',
    // `user:password@host` without a scheme, raw or URL-encoded.
    pattern: String.raw`(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}(?::|${PCT}3[Aa])[^\s@/'"\x60]{1,64}(?:@|${PCT}40)(?=[A-Za-z0-9\[])`,
    replacement: '[redacted]@',
  },
  {
    id: 'jwt',
    source: 'gitleaks:jwt',
    pattern: String.raw`${TOKEN_START}eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.?[A-Za-z0-9_-]*`,
    replacement: '[redacted-jwt]',
  },
  {
    id: 'aws-access-key-id',
    source: 'secretlint:aws',
    pattern: String.raw`(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[A-Za-z0-9]{12,}`,
    replacement: '[redacted-key]',
  },
  {
    id: 'github-token',
    source: 'secretlint:github',
    // May follow an underscore (`GITHUB_TOKEN_ghp_…`): the prefix is distinctive enough.
    pattern: String.raw`(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{10,}|github_pat_[A-Za-z0-9_]{10,})`,
    replacement: '[redacted-key]',
  },
  {
    id: 'prefixed-api-key',
    source: 'secretlint:openai, secretlint:anthropic, gitleaks:stripe',
    // OpenAI `sk-`/`sk-proj-`, Anthropic `sk-ant-`, Stripe `sk_live_`/`rk_test_`/`pk_live_`, and the like.
    // The dashed forms (`sk-proj-`) may also follow an underscore, as in a variable name glued to the key
    // (`OPENAI_KEY_sk-proj-…`); the underscore forms may not, or `user_pk_reference_id` would be a key.
    pattern: String.raw`(?:${TOKEN_START}(?:sk|pk|rk|ak)_|(?<![A-Za-z0-9-])(?:sk|pk|rk|ak)-)[A-Za-z0-9_-]{8,}`,
    replacement: '[redacted-key]',
  },
  {
    id: 'vendor-token',
    source:
      'secretlint:slack, secretlint:sendgrid, secretlint:shopify, secretlint:npm, secretlint:gcp, secretlint:linear, secretlint:1password, gitleaks:gitlab, gitleaks:huggingface, gitleaks:stripe',
    pattern: String.raw`${TOKEN_START}(?:npm_[A-Za-z0-9]{30,}|(?:xox[abposr]-|xapp-|SG\.|shp(?:at|ca|pa|ss)_|AIza|lin_api_|ops_eyJ|glpat-|hf_|whsec_)[A-Za-z0-9_.=+/-]{10,})`,
    replacement: '[redacted-key]',
  },
];
