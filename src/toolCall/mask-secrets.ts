import { SECRET_RULES, type SecretRule } from './secret-rules';

type CompiledRule = { readonly regex: RegExp; readonly rule: SecretRule };

const COMPILED: readonly CompiledRule[] = SECRET_RULES.map((rule) => ({
  regex: new RegExp(rule.pattern, `g${rule.flags ?? ''}`),
  rule,
}));

/**
 * Mask what must never reach a model or a log: URLs (credentials and query strings ride in them), private keys,
 * JWTs, vendor API keys and tokens (OpenAI, Anthropic, Stripe, GitHub, AWS, Slack, …), `Bearer`/`Basic`
 * credentials, and values given to secret-holding names (`clientSecret=…`, `"dbPassword": "…"`), raw,
 * JSON-escaped or URL-encoded.
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
          return passes(rule, match)
            ? rule.replacement.replace(/\$<(\w+)>/g, (_, name: string) => groups[name] ?? '')
            : match;
        })
      : masked.replace(regex, rule.replacement);
  }
  return masked;
}

function passes(rule: SecretRule, match: string): boolean {
  if (rule.verify !== 'base64-credentials') return true;
  // `Basic <base64(user:password)>`: prose such as "Basic authentication" decodes to no colon.
  const encoded = match.replace(/^[A-Za-z]+(?:\s+|%20|\+)/, '');
  return Buffer.from(encoded, 'base64').toString('latin1').includes(':');
}
