import { getErrText } from '../../src/text/error-text';
import { maskSecrets } from '../../src/text/mask-secrets';
import { modelSafeText } from '../../src/text/model-text';
import { SECRET_RULES } from '../../src/text/secret-rules';

/** Random-looking values, so finding one in the output can only mean it leaked. */
const S = 'Zq8Yw7Vu6Ts5Rq4P3oNm';
const B64 = Buffer.from(`deploy:${S}`).toString('base64');
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${S}`;
const PEM_BODY = `MIIEowIBAAKCAQEA${S}`;

/** (what it is, the text, what must not appear in the masked text). */
const CORPUS: [string, string, string][] = [
  // Names that hold secrets, in every casing and syntax.
  ['snake_case password', `password=${S}`, S],
  ['camelCase clientSecret', `clientSecret=${S}`, S],
  ['camelCase dbPassword', `dbPassword: ${S}`, S],
  ['camelCase refreshToken', `refreshToken=${S}`, S],
  ['camelCase accessToken', `{"accessToken":"${S}"}`, S],
  ['camelCase apiKey', `"apiKey": "${S}"`, S],
  ['kebab x-api-key header', `x-api-key: ${S}`, S],
  ['SCREAMING AWS_SECRET_ACCESS_KEY', `AWS_SECRET_ACCESS_KEY=${S}`, S],
  ['client_secret form field', `grant_type=refresh_token&client_secret=${S}&x=1`, S],
  ['refresh_token single quotes', `refresh_token: '${S}'`, S],
  ['passwd', `passwd=${S}`, S],
  ['pwd', `pwd=${S}`, S],
  ['passphrase', `passphrase: ${S}`, S],
  ['private_key field', `"private_key": "${S}"`, S],
  ['credentials', `credentials=${S}`, S],
  ['session id', `sessionId=${S}`, S],
  ['cookie header', `Cookie: ${S}`, S],
  ['auth token yaml', `authToken: ${S}`, S],
  ['secret_key', `SECRET_KEY = "${S}"`, S],
  ['passwordHash', `passwordHash=${S}`, S],
  ['tokenValue', `tokenValue=${S}`, S],
  ['python kwarg', `connect(password="${S}")`, S],
  // JSON-escaped and URL-encoded forms.
  ['JSON-escaped password', `{\\"password\\":\\"${S}\\"}`, S],
  ['double JSON-escaped', `{\\\\\\"dbPassword\\\\\\":\\\\\\"${S}\\\\\\"}`, S],
  ['URL-encoded token=', `token%3D${S}`, S],
  ['URL-encoded JSON', `%7B%22password%22%3A%22${S}%22%7D`, S],
  ['URL-encoded Bearer', `Authorization%3ABearer%20${S}`, S],
  ['JSON-escaped URL credentials', `{"url":"https:\\/\\/admin:${S}@db.local\\/x"}`, S],
  // Authorization schemes.
  ['Bearer header', `Authorization: Bearer ${S}`, S],
  ['bare Bearer', `sent Bearer ${S} upstream`, S],
  ['Basic header', `Authorization: Basic ${B64}`, B64],
  ['Basic without Authorization', `proxy answered 407 for Basic ${B64}`, B64],
  ['Basic in JSON', `{"Proxy": "Basic ${B64}"}`, B64],
  ['Proxy-Authorization', `Proxy-Authorization: Basic ${B64}`, B64],
  ['Token scheme', `Authorization: Token ${S}`, S],
  // URLs and connection strings.
  ['https credentials', `GET https://admin:${S}@api.example.com/v1 failed`, S],
  ['query api_key', `https://api.example.com/v1/search?api_key=${S}&q=x`, S],
  ['postgres URL', `postgres://app:${S}@10.0.0.5:5432/db`, S],
  ['mongodb+srv URL', `mongodb+srv://root:${S}@cluster0.mongodb.net/test`, S],
  ['redis URL', `redis://default:${S}@cache:6379`, S],
  ['jdbc URL', `jdbc:mysql://db:3306/app?user=root&password=${S}`, S],
  ['URL-encoded connection string', `postgres%3A%2F%2Fapp%3A${S}%40db%2Fapp`, S],
  ['twice URL-encoded connection string', `next=postgres%253A%252F%252Fapp%253A${S}%2540db`, S],
  ['twice URL-encoded password=', `redirect=%2Flogin%3Fpassword%253D${S}`, S],
  ['twice URL-encoded JSON', `%2522apiKey%2522%253A%2522${S}%2522`, S],
  ['twice URL-encoded user:pass@host', `u%253A${S}%2540db.internal`, S],
  ['JSON-escaped ADO.NET string', `{\\"conn\\":\\"Server=db;User Id=sa;Password=${S};\\"}`, S],
  ['quoted ADO.NET password', `Server=tcp:x.database.windows.net;User ID=u;Password="${S}";`, S],
  ['Npgsql string in JSON', `"connectionString": "Host=db;Username=u;Password=${S}"`, S],
  ['ODBC Pwd', `Driver={ODBC};Data Source=x;Uid=u;Pwd=${S};`, S],
  ['Go MySQL DSN', `dial user:${S}@tcp(db:3306)/app failed`, S],
  ['DATABASE_URL', `DATABASE_URL=postgres://u:${S}@h/db`, S],
  ['amqp URL', `amqp://guest:${S}@rabbit:5672/`, S],
  ['scheme-less user:pass@host', `could not connect to app:${S}@db.internal:5432`, S],
  ['ADO.NET connection string', `Server=db;Database=app;User Id=sa;Password=${S};`, S],
  ['Azure AccountKey', `DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${S}==;EndpointSuffix=core`, S],
  ['Azure SharedAccessKey', `Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=r;SharedAccessKey=${S}=`, S],
  ['ConnectionString field', `ConnectionString=${S}`, S],
  // Vendor keys and tokens.
  ['OpenAI sk-', `Incorrect API key provided: sk-${S}.`, S],
  ['OpenAI sk-proj-', `key sk-proj-${S}`, S],
  ['Anthropic sk-ant-', `sk-ant-api03-${S}`, S],
  ['Stripe sk_live_', `stripe key sk_live_${S}`, S],
  ['Stripe rk_test_', `rk_test_${S}`, S],
  ['Stripe webhook secret', `whsec_${S}`, S],
  ['GitHub ghp_', `token ghp_${S} revoked`, S],
  ['GitHub gho_', `gho_${S}`, S],
  ['GitHub ghs_', `ghs_${S}`, S],
  ['GitHub fine-grained PAT', `github_pat_11ABCDEFG_${S}`, S],
  ['AWS AKIA', `AKIAIOSFODNN7EXAMPLE`, 'IOSFODNN7EXAMPLE'],
  ['AWS ASIA', `key ASIAY34FZKBOKMUTVV7A expired`, 'Y34FZKBOKMUTVV7A'],
  ['Slack bot token', `xoxb-1234567890-${S}`, S],
  ['Slack app token', `xapp-1-A0B1C2D3-${S}`, S],
  ['SendGrid', `SG.${S}.${S}xyz`, S],
  ['Google API key', `AIzaSyA-${S}1234567890`, S],
  ['npm token', `npm_${S}${S}`, S],
  ['GitLab PAT', `glpat-${S}`, S],
  ['Hugging Face', `hf_${S}`, S],
  ['Shopify', `shpat_${S}abcdef`, S],
  ['Linear', `lin_api_${S}${S}`, S],
  ['JWT', `session ${JWT} rejected`, S],
  ['JWT in JSON', `{"id_token":"${JWT}"}`, S],
  // Private keys.
  ['single-line PEM', `-----BEGIN RSA PRIVATE KEY-----${PEM_BODY}-----END RSA PRIVATE KEY-----`, S],
  ['PEM with escaped newlines', `"-----BEGIN PRIVATE KEY-----\\n${PEM_BODY}\\n-----END PRIVATE KEY-----\\n"`, S],
  ['multi-line PEM', `-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY}\n${S}\n-----END OPENSSH PRIVATE KEY-----`, S],
  ['EC PEM', `-----BEGIN EC PRIVATE KEY-----\n${PEM_BODY}`, S],
  // A name and a validation message around a real value: the value is still masked.
  ['value before a message', `secret: ${S} must be rotated`, S],
  ['value that starts with the field name', `password: password${S} must be changed`, S],
  ['quoted value before a message', `"password": "${S}" is invalid`, S],
  ['the name as the whole value', `password=password${S}`, S],
  // Values with spaces, and keys glued to other words.
  ['quoted value with spaces', `password: "abc ${S}"`, S],
  ['single-quoted value with spaces', `secret='abc def ${S}'`, S],
  ['JSON value with spaces', `{"clientSecret":"abc ${S}","user":"x"}`, S],
  ['JSON-escaped value with spaces', `{\\"password\\":\\"abc ${S}\\"}`, S],
  ['quoted Bearer value with spaces', `"Authorization": "Bearer abc ${S}"`, S],
  ['Bearer token with $', `Bearer abc$${S}`, S],
  ['OpenAI key glued to a variable name', `OPENAI_KEY_sk-proj-${S}`, S],
  ['OpenAI key after an underscore', `x_sk-proj-${S}`, S],
  ['GitHub token glued to a variable name', `GITHUB_TOKEN_ghp_${S}`, S],
];

/** Text that names a secret-holding field without holding a value: the model needs it to fix its call. */
const NOT_SECRETS: string[] = [
  'password: password must be a string',
  'password: password must be longer than or equal to 8 characters',
  'clientSecret: clientSecret must be a string',
  'credentials.password: password should not be empty',
  'token: token must be a string',
  'apiKey: property apiKey should not exist',
  'secret: must be a string',
  'refreshToken: refreshToken is required',
  'auth: required',
  'sessionId: invalid',
  'Token: expired',
  'password: must match /^[a-z]+$/ regular expression',
  'Invalid arguments for tool "login":\npassword: password must be a string\ntoken: token is required\n… and 3 more',
  'the token is invalid',
  'passwordPolicy: must be a string',
  'Call tool not found: reset_password',
  'City not found: Atlantis',
  'Basic authentication failed',
  'max_tokens: 4096 is too large',
  'Unexpected token } in JSON at position 5',
  'the task-scheduler ran 3 jobs',
  'user@example.com is not allowed',
  'Asia/Tokyo is not a valid time zone',
  'user_pk_reference_id must be set',
  '"token": "required"',
];

/** A stack trace after each kind of line break JavaScript knows; nothing from the frame may reach the model. */
const FRAME = `    at load (/srv/app/${S}/db.js:10:5)`;
const STACKS: [string, string][] = [
  ['\\n', `boom\n${FRAME}`],
  ['\\r', `boom\r${FRAME}`],
  ['\\r\\n', `boom\r\n${FRAME}`],
  ['U+2028', `boom\u2028${FRAME}`],
  ['U+2029', `boom\u2029${FRAME}`],
  ['U+0085', `boom\u0085${FRAME}`],
  ['\\v', `boom\v${FRAME}`],
  ['\\f', `boom\f${FRAME}`],
  ['U+2028, frame not indented', `boom\u2028${FRAME.trim()}`],
];

describe('maskSecrets', () => {
  it('covers at least 67 shapes', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(67);
  });

  it.each(CORPUS)('masks %s', (_label, input, secret) => {
    expect(input).toContain(secret);
    const masked = maskSecrets(input);
    expect(masked).not.toContain(secret);
    expect(masked).toContain('[redacted');
  });

  it.each(NOT_SECRETS)('leaves text without a secret alone: %s', (text) => {
    expect(maskSecrets(text)).toBe(text);
    expect(modelSafeText(text)).toBe(text);
  });

  it.each(STACKS)('drops a stack frame after %s, in error text and in model text', (_label, text) => {
    expect(getErrText(new Error(text))).toBe('boom');
    expect(getErrText(text)).toBe('boom');
    expect(modelSafeText(text)).toBe('boom');
  });

  it('keeps what tells the model what failed', () => {
    expect(maskSecrets(`GET https://u:${S}@api.x/v1 failed`)).toBe('GET https://[redacted] failed');
    expect(maskSecrets(`clientSecret=${S}`)).toBe('clientSecret=[redacted]');
    expect(maskSecrets(`Authorization: Basic ${B64}`)).toBe('Authorization: Basic [redacted]');
    expect(maskSecrets(`{"password":"abc ${S}","user":"bob"}`)).toBe('{"password":"[redacted]","user":"bob"}');
    expect(maskSecrets(`"Authorization": "Bearer abc ${S}"`)).toBe('"Authorization": "Bearer [redacted]"');
  });

  it('is idempotent: masking masked text changes nothing', () => {
    for (const [, input] of CORPUS) {
      const once = maskSecrets(input);
      expect(maskSecrets(once)).toBe(once);
    }
  });

  it('has no nested quantifier in any rule', () => {
    for (const rule of SECRET_RULES) {
      // A quantified group that itself contains a quantifier is the shape that backtracks exponentially.
      expect(rule.pattern).not.toMatch(/\((?:\?:)?[^()]*[*+}]\)[*+{]/);
    }
  });
});
