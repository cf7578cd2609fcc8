import 'reflect-metadata';
import { Matches, MinLength } from 'class-validator';
import fc from 'fast-check';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { standardSchemaOf } from '../../src/definitions/standard/standard-schema-of';
import { toolsFrom } from '../../src/definitions/tools-from';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { startScriptedServer } from '../../src/testing';
import { runTool } from '../../src/toolCall/run-tool';
import type { ToolDefinition } from '../../src/toolCall/type';
import { fakeTool, user } from '../helpers/tools';

/** Secrets are long random tokens, so finding one in the output can only mean it leaked. */
const secret = (n: number) => `S${n}x${'Zq8Yw7Vu6Ts5Rq4P'.slice(n % 4)}${n}`;

/** What each tool throws, and the secrets it carries. */
const LEAKS: { name: string; thrown: () => unknown; secrets: string[]; keeps: string }[] = [
  {
    name: 'url_credentials',
    thrown: () => new Error(`GET https://admin:${secret(1)}@db.internal:5432/users failed`),
    secrets: [secret(1), 'admin:'],
    keeps: 'GET https://[redacted] failed',
  },
  {
    name: 'query_key',
    thrown: () => new Error(`fetch https://api.example.com/v1/search?api_key=${secret(2)}&q=x returned 401`),
    secrets: [secret(2)],
    keeps: 'returned 401',
  },
  {
    name: 'openai_key',
    thrown: () =>
      new Error(
        `401 Incorrect API key provided: sk-proj-${secret(3)}. You can find your API key at https://platform.openai.com`,
      ),
    secrets: [secret(3)],
    keeps: 'Incorrect API key provided: [redacted-key]',
  },
  {
    name: 'bearer_header',
    thrown: () => new Error(`request failed with headers {"Authorization":"Bearer ${secret(4)}","Accept":"json"}`),
    secrets: [secret(4)],
    keeps: 'request failed with headers',
  },
  {
    name: 'basic_auth',
    thrown: () => new Error(`proxy refused Proxy-Authorization: Basic ${secret(5)}`),
    secrets: [secret(5)],
    keeps: 'proxy refused',
  },
  {
    name: 'oauth_form',
    thrown: () =>
      new Error(`invalid_grant for grant_type=refresh_token&client_secret=${secret(6)}&refresh_token=${secret(7)}`),
    secrets: [secret(6), secret(7)],
    keeps: 'invalid_grant',
  },
  {
    // An axios-style error: the message lives in response.data, the key in the request config.
    name: 'axios_shape',
    thrown: () => ({
      message: 'Request failed with status code 401',
      config: { headers: { Authorization: `Bearer ${secret(8)}` } },
      response: { status: 401, data: { message: `key ghp_${secret(9)} revoked` } },
    }),
    secrets: [secret(8), secret(9)],
    keeps: 'revoked',
  },
  {
    name: 'stack_in_message',
    thrown: () => {
      const inner = new Error('database unavailable');
      return new Error(inner.stack);
    },
    secrets: [__filename, 'node_modules', '    at '],
    keeps: 'Error: database unavailable',
  },
  {
    name: 'thrown_string_with_stack',
    thrown: () =>
      `connection reset\n    at Socket.onEnd (/srv/app/${secret(10)}/db.js:10:5)\n    at emit (node:events:1:1)`,
    secrets: [secret(10), '/srv/app', 'node:events'],
    keeps: 'connection reset',
  },
];

describe('error text the model reads carries no stack trace, credentials or keys', () => {
  it('checks the tool messages actually sent in the next request', async () => {
    const server = await startScriptedServer({
      turns: [
        { toolCalls: LEAKS.map((leak, i) => ({ id: `e${i}`, name: leak.name, arguments: {} })) },
        { text: 'done' },
      ],
    });
    try {
      const tools: ToolDefinition[] = LEAKS.map((leak) =>
        fakeTool(leak.name, async () => {
          await Promise.resolve();
          throw leak.thrown();
        }),
      );
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools,
      });
      expect(result.stopReason).toBe('completed');

      const sent = server.requests[1].body.messages.filter((m) => m.role === 'tool') as {
        tool_call_id: string;
        content: string;
      }[];
      expect(sent.map((m) => m.tool_call_id)).toEqual(LEAKS.map((_, i) => `e${i}`));
      sent.forEach(({ content }, i) => {
        const leak = LEAKS[i];
        expect(content).toMatch(/^Tool error: /);
        expect(content).toContain(leak.keeps);
        expect(content).not.toMatch(/\n|\bat .*:\d+:\d+/);
        for (const s of leak.secrets) expect(content).not.toContain(s);
      });
      // The whole request body, not just the tool messages, is free of every secret.
      const wire = JSON.stringify(server.requests[1].body);
      for (const leak of LEAKS)
        for (const s of leak.secrets.filter((x) => x.startsWith('S'))) expect(wire).not.toContain(s);
    } finally {
      await server.close();
    }
  });

  it('masks a secret in whatever a hand-written parseParams throws', async () => {
    const tool: ToolDefinition = {
      schema: { type: 'function', function: { name: 'p', parameters: { type: 'object' } } },
      parseParams: () => {
        throw new Error(`schema registry https://svc:${secret(11)}@registry.local unreachable`);
      },
      execute: async () => ({ response: 'never' }),
    };
    const call: ChatCompletionMessageToolCall = { id: 'c', type: 'function', function: { name: 'p', arguments: '{}' } };
    const { response } = await runTool({ call, messages: [], tools: [tool] });
    expect(response).toBe('Tool error: schema registry https://[redacted] unreachable');
  });

  it('never lets a key-shaped secret through, whatever text surrounds it (property-based)', async () => {
    const formats: ((s: string) => string)[] = [
      (s) => `https://user:${s}@host.example/path`,
      (s) => `postgres://app:${s}@10.0.0.5:5432/db`,
      (s) => `https://api.example.com/v1?key=${s}&page=2`,
      (s) => `sk-${s}`,
      (s) => `sk-proj-${s}`,
      (s) => `sk-ant-api03-${s}`,
      (s) => `Bearer ${s}`,
      (s) => `Authorization: Bearer ${s}`,
      (s) => `Authorization: Basic ${s}`,
      (s) => `{"Authorization": "Basic ${s}"}`,
      (s) => `api_key=${s}`,
      (s) => `"apiKey": "${s}"`,
      (s) => `x-api-key: ${s}`,
      (s) => `password=${s}`,
      (s) => `client_secret=${s}`,
      (s) => `refresh_token: '${s}'`,
      (s) => `access_token=${s}`,
      (s) => `ghp_${s}`,
      (s) => `AKIA${s}`,
      (s) => `ok\n    at leak (/app/${s}.js:1:1)`,
    ];
    const tool = (thrown: unknown): ToolDefinition => ({
      schema: { type: 'function', function: { name: 't', parameters: { type: 'object' } } },
      execute: async () => {
        throw thrown;
      },
    });
    const call: ChatCompletionMessageToolCall = { id: 'c', type: 'function', function: { name: 't', arguments: '{}' } };
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[A-Za-z0-9]{16,40}$/),
        fc.nat({ max: formats.length - 1 }),
        fc.string({ maxLength: 40 }),
        fc.constantFrom(' ', ': ', '(', '"', ', ', '\t', ' - '),
        fc.string({ maxLength: 40 }),
        fc.constantFrom('error', 'string', 'object'),
        async (s, format, before, separator, after, shape) => {
          const text = `${before}${separator}${formats[format](s)}${separator}${after}`;
          const thrown =
            shape === 'error' ? new Error(text) : shape === 'string' ? text : { response: { data: { message: text } } };
          const { response } = await runTool({ call, messages: [], tools: [tool(thrown)] });
          expect(response.startsWith('Tool error: ')).toBe(true);
          expect(response).not.toContain(s);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('validation text names secret-holding fields without being masked', () => {
  class Accounts {
    @Tool({ description: 'Sign in' })
    login(
      @Param('username') username: string,
      @Param('password', {}, MinLength(8)) password: string,
      @Param('refreshToken', { optional: true }) refreshToken?: string,
    ) {
      return `${username}:${password.length}:${refreshToken ?? ''}`;
    }
  }

  it('tells the model which field to fix, in the tool message of the next request', async () => {
    const server = await startScriptedServer({
      turns: [
        {
          toolCalls: [
            { id: 'a', name: 'login', arguments: { username: 'ann', password: 3, refreshToken: 7 } },
            { id: 'b', name: 'login', arguments: { username: 'ann', password: 'short', apiKey: 'x' } },
          ],
        },
        { text: 'done' },
      ],
    });
    try {
      await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: toolsFrom(new Accounts()),
      });
      const sent = server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(sent).toEqual([
        'Invalid arguments for tool "login":\n' +
          'password: password must be longer than or equal to 8 characters\n' +
          'refreshToken: refreshToken must be a string',
        'Invalid arguments for tool "login":\n' +
          'apiKey: property apiKey should not exist\n' +
          'password: password must be longer than or equal to 8 characters',
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('validation text never repeats the value of a secret-holding field', () => {
  const S = 'Zq8Yw7Vu6Ts5Rq4P3oNm';
  // Custom messages that echo the value: `$value` after the field's name, where masking alone sees a message.
  class Credentials {
    @Param() @Matches(/^[a-z]+$/, { message: '$property must not be $value' }) password!: string;
    @Param() @MinLength(40, { message: '$property $value is too short' }) apiKey!: string;
    @Param() @MinLength(40, { message: '$property $value is too short' }) city!: string;
  }
  class Vault {
    @Tool({ description: 'Open the vault' })
    open(@Param() credentials: Credentials) {
      return credentials.city;
    }
  }

  it('takes the value out of the tool message the next request sends, keeping the field names', async () => {
    const server = await startScriptedServer({
      turns: [
        {
          toolCalls: [
            {
              name: 'open',
              arguments: { password: `abc ${S}`, apiKey: `x$${S}`, city: 'Atlantis' },
            },
          ],
        },
        { text: 'done' },
      ],
    });
    try {
      await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: toolsFrom(new Vault()),
      });
      const [sent] = server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(sent).not.toContain(S);
      expect(sent).toContain('password: password must not be [redacted]');
      expect(sent).toContain('apiKey: apiKey [redacted] is too short');
      // A value that holds no secret is still read back, so the model can see what it sent.
      expect(sent).toContain('city: city Atlantis is too short');
    } finally {
      await server.close();
    }
  });

  it('takes it out of the issues a Standard Schema consumer reads', () => {
    const result = standardSchemaOf(Credentials)['~standard'].validate({
      password: `abc ${S}`,
      apiKey: `x$${S}`,
      city: 'Atlantis',
    }) as { issues: { message: string }[] };
    expect(result.issues.map((issue) => issue.message)).toEqual([
      'password must not be [redacted]',
      'apiKey [redacted] is too short',
      'city Atlantis is too short',
    ]);
  });
});
