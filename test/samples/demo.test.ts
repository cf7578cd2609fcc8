import { createServer } from 'node:net';
import type OpenAI from 'openai';
import { runDemo, type DemoIo } from '../../samples/demo/run-demo';
import { demoScript } from '../../samples/demo/scripted-model';
import { wireFromEnv } from '../../samples/demo/wire-option';
import { sampleTools } from '../../samples/tools';
import { runAgentLoop, type Decision } from '../../src';
import { startScriptedServer } from '../../src/testing';
import { toResponsesInput } from '../testing/responses-input';

function capture(): { text: () => string; sink: { write(text: string): void } } {
  let text = '';
  return { text: () => text, sink: { write: (chunk: string) => void (text += chunk) } };
}

async function demo(args: string[], env: DemoIo['env'] = {}, ask?: DemoIo['ask'], confirm?: DemoIo['confirm']) {
  const out = capture();
  const err = capture();
  const code = await runDemo({ args, env, out: out.sink, err: err.sink, ask, confirm });
  return { code, out: out.text(), err: err.text() };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run demo', () => {
  it('without a key, runs the embedded model: tool calls, a validation error and its correction, the answer, usage', async () => {
    const { code, out, err } = await demo([
      'Weather',
      'in',
      'Rome,',
      'and',
      'add',
      'a',
      'to-do',
      'to',
      'book',
      'a',
      'table',
    ]);
    expect(code).toBe(0);
    expect(err).toBe('');
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^No OPENAI_API_KEY set: running against the embedded scripted model/);
    expect(out).toContain('⚙ get_weather {"city":"Rome"}');
    expect(out).toContain('✓ get_weather → {"city":"Rome","temperatureC":19,"conditions":"sunny"}');
    expect(out).toMatch(
      /✗ add_todo → Invalid arguments for tool "add_todo": ⏎ title: .* ⏎ priority: priority must be one of the following values: low, normal, high/,
    );
    expect(out).toContain('✓ add_todo → {"title":"Book a table","priority":"high"');
    // Two shares need approval: the embedded user approves one and refuses the other, with a reason.
    expect(out).toContain('? Allow share_todo {"id":"todo-1","email":"alex@example.com"}? [y / n <reason>]\n  y\n');
    expect(out).toContain(
      '? Allow share_todo {"id":"todo-1","email":"team@example.com"}? [y / n <reason>]\n  n Only Alex, please: the team does not need it\n',
    );
    expect(out).toContain('✓ share_todo → Shared todo-1 ("Book a table") with alex@example.com');
    expect(out).toContain(
      '⊘ share_todo → Tool call rejected by the user: Only Alex, please: the team does not need it',
    );
    expect(out).toContain(
      'It is 19°C and sunny in Rome. I added "Book a table" to your to-do list (todo-1, high priority). ' +
        '1 of 2 shares sent; you refused one ("Only Alex, please: the team does not need it").',
    );
    expect(out).toMatch(
      /— completed · 5 model turns · 5 tool calls \(1 failed, 1 refused\) · \d+ input \/ \d+ output tokens\n$/,
    );
  });

  it('asks y/n before a share: a yes runs it, a no and its reason go back to the model instead', async () => {
    const server = await startScriptedServer();
    try {
      const share = (email: string) => ({ name: 'share_todo', arguments: { id: 'todo-1', email } });
      const session = server.session([
        { toolCalls: [{ id: 'add', name: 'add_todo', arguments: { title: 'Call mum' } }] },
        {
          toolCalls: [
            { id: 'yes', ...share('ann@example.com') },
            { id: 'no', ...share('bob@example.com') },
          ],
        },
        { text: 'Shared with Ann only.' },
      ]);
      const typed = ['yes', 'n not Bob'];
      const prompts: string[] = [];
      const { code, out } = await demo(
        ['share it'],
        { OPENAI_API_KEY: session.apiKey, OPENAI_BASE_URL: session.baseURL },
        undefined,
        async (prompt) => {
          prompts.push(prompt);
          return typed.shift()!;
        },
      );
      expect(code).toBe(0);
      expect(prompts).toEqual([
        '? Allow share_todo {"id":"todo-1","email":"ann@example.com"}? [y / n <reason>]',
        '? Allow share_todo {"id":"todo-1","email":"bob@example.com"}? [y / n <reason>]',
      ]);
      // Nothing was asked of the model while the user decided; then it read one result and one refusal.
      expect(session.requests).toHaveLength(3);
      expect(session.requests[2].body.messages.slice(-2)).toEqual([
        { role: 'tool', tool_call_id: 'yes', content: 'Shared todo-1 ("Call mum") with ann@example.com' },
        { role: 'tool', tool_call_id: 'no', content: 'Tool call rejected by the user: not Bob' },
      ]);
      expect(out).toMatch(/— completed · 3 model turns · 3 tool calls \(1 refused\)/);
    } finally {
      await server.close();
    }
  });

  const USAGE =
    'usage: npm run demo -- [--wire auto|chat|responses] "<prompt>"\n' +
    '  e.g. npm run demo -- "What\'s the weather in Rome? Add a to-do to book a table."\n';
  it.each([
    { name: 'no prompt at all', args: [], err: USAGE },
    { name: 'a blank prompt', args: ['   '], err: USAGE },
    {
      name: 'a prompt one character over the limit',
      args: ['x'.repeat(4001)],
      err: 'error: the prompt is 4001 characters; the limit is 4000\n',
    },
    {
      name: 'an unknown wire',
      args: ['--wire', 'grpc', 'hi'],
      err: `error: --wire must be one of auto, chat, responses; got "grpc"\n${USAGE}`,
    },
    {
      name: 'a --wire with no value',
      args: ['--wire'],
      err: `error: --wire must be one of auto, chat, responses; got ""\n${USAGE}`,
    },
    {
      name: 'an unknown OPENAI_WIRE',
      args: ['hi'],
      env: { OPENAI_WIRE: 'Responses' },
      err: `error: OPENAI_WIRE must be one of auto, chat, responses; got "Responses"\n${USAGE}`,
    },
  ])('refuses $name with exit code 2 and says why', async ({ args, env, err: expected }) => {
    const { code, out, err } = await demo(args, env);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(expected);
  });

  it.each([
    { args: ['--wire', 'responses', 'Weather in Rome'], env: {} },
    { args: ['--wire=responses', 'Weather in Rome'], env: {} },
    { args: ['Weather in Rome'], env: { OPENAI_WIRE: 'responses' } },
  ])('takes the wire from $args / $env and still runs the embedded model offline', async ({ args, env }) => {
    const { code, out, err } = await demo(args, env);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('> Weather in Rome\n');
    expect(out).toContain('⚙ get_weather {"city":"Rome"}');
    expect(out).toMatch(/— completed · 5 model turns · 5 tool calls \(1 failed, 1 refused\)/);
  });

  it('names the wire it was given beside the model, --wire over OPENAI_WIRE', async () => {
    const server = await startScriptedServer();
    try {
      const session = server.session([{ text: 'Hello.' }]);
      const { code, out } = await demo(['--wire', 'chat', 'hi'], {
        OPENAI_API_KEY: session.apiKey,
        OPENAI_BASE_URL: session.baseURL,
        OPENAI_WIRE: 'responses',
      });
      expect(code).toBe(0);
      expect(out.split('\n')[0]).toBe(`agentcall demo · model gpt-4o-mini at ${session.baseURL} · wire chat`);
      expect(session.requests[0].wire).toBe('chat');
    } finally {
      await server.close();
    }
  });

  it.each([
    { args: ['--wire', 'responses', 'hi'], env: {} },
    { args: ['hi'], env: { OPENAI_WIRE: 'responses' } },
  ])('speaks the Responses API to the endpoint with $args / $env', async ({ args, env }) => {
    const server = await startScriptedServer();
    try {
      const session = server.session([{ text: 'Hello over Responses.' }]);
      const { code, out } = await demo(args, {
        ...env,
        OPENAI_API_KEY: session.apiKey,
        OPENAI_BASE_URL: session.baseURL,
      });
      expect(code).toBe(0);
      expect(out.split('\n')[0]).toBe(`agentcall demo · model gpt-4o-mini at ${session.baseURL} · wire responses`);
      expect(out).toContain('Hello over Responses.');
      expect(session.requests.map((r) => r.wire)).toEqual(['responses']);
    } finally {
      await server.close();
    }
  });

  it('accepts a prompt exactly at the limit', async () => {
    const { code, err } = await demo(['x'.repeat(4000)]);
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('talks to the endpoint in OPENAI_BASE_URL with OPENAI_API_KEY and OPENAI_MODEL', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'Hello from a real endpoint.' }] });
    try {
      const session = server.session([{ text: 'Hello from a real endpoint.' }]);
      const { code, out } = await demo(['hi'], {
        OPENAI_API_KEY: session.apiKey,
        OPENAI_BASE_URL: session.baseURL,
        OPENAI_MODEL: 'my-model',
      });
      expect(code).toBe(0);
      expect(out.split('\n')[0]).toBe(`agentcall demo · model my-model at ${session.baseURL}`);
      expect(out).toContain('Hello from a real endpoint.');
      expect(session.requests[0].body.model).toBe('my-model');
      expect(session.requests[0].headers.authorization).toBe(`Bearer ${session.apiKey}`);
    } finally {
      await server.close();
    }
  });

  it('exits 1 with a clear message on a bad key', async () => {
    const server = await startScriptedServer();
    try {
      const session = server.session([{ status: 401, errorMessage: 'Incorrect API key provided' }]);
      const { code, err } = await demo(['hi'], { OPENAI_API_KEY: session.apiKey, OPENAI_BASE_URL: session.baseURL });
      expect(code).toBe(1);
      expect(err).toBe('error: the endpoint refused the API key (401): check OPENAI_API_KEY\n');
    } finally {
      await server.close();
    }
  });

  it('exits 1 with a clear message when the endpoint is unreachable', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const { code, err } = await demo(['hi'], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL });
    expect(code).toBe(1);
    expect(err).toBe(`error: cannot reach the model endpoint ${baseURL} (check OPENAI_BASE_URL and your network)\n`);
  });

  it('asks the user when the model calls ask_user, and resumes with the answer', async () => {
    const server = await startScriptedServer();
    try {
      const session = server.session([
        { toolCalls: [{ name: 'ask_user', arguments: { question: 'Which city?' } }] },
        (req) => ({ text: `You said: ${req.body.messages.at(-1)?.content}` }),
      ]);
      const questions: string[] = [];
      const { code, out } = await demo(
        ['weather please'],
        { OPENAI_API_KEY: session.apiKey, OPENAI_BASE_URL: session.baseURL },
        async ({ question }) => {
          questions.push(question);
          return 'Oslo';
        },
      );
      expect(code).toBe(0);
      expect(questions).toEqual(['Which city?']);
      expect(out).toContain('? Which city?');
      expect(out).toContain('You said: The user answered: Oslo');
    } finally {
      await server.close();
    }
  });

  it('counts failed tool calls by outcome, not by what their text looks like', async () => {
    const server = await startScriptedServer();
    try {
      const session = server.session([
        {
          toolCalls: [
            { name: 'calculate', arguments: { expression: '2 +* 2' } },
            { name: 'finish', arguments: { summary: 'Tool error: none, every lookup succeeded.' } },
          ],
        },
      ]);
      const { code, out } = await demo(['wrap up'], {
        OPENAI_API_KEY: session.apiKey,
        OPENAI_BASE_URL: session.baseURL,
      });
      expect(code).toBe(0);
      expect(out).toMatch(/✗ calculate → /);
      expect(out).toContain('✓ finish → Tool error: none, every lookup succeeded.');
      expect(out).toMatch(/· 2 tool calls \(1 failed\) ·/);
    } finally {
      await server.close();
    }
  });
});

describe('wireFromEnv', () => {
  it('reads OPENAI_WIRE as runAgentLoop options, nothing when unset, an error naming the choices otherwise', () => {
    expect(wireFromEnv({})).toEqual({});
    expect(wireFromEnv({ OPENAI_WIRE: '' })).toEqual({});
    expect(wireFromEnv({ OPENAI_WIRE: 'responses' })).toEqual({ wire: 'responses' });
    expect(() => wireFromEnv({ OPENAI_WIRE: 'http' })).toThrow(
      'OPENAI_WIRE must be one of auto, chat, responses; got "http"',
    );
  });
});

describe('the embedded model on the Responses route', () => {
  it('answers each request of a chat run, sent as Responses input, with the same reading and the same answer', async () => {
    const prompt = 'Weather in Rome, and add a to-do to book a table';
    const chat = await startScriptedServer({ turns: demoScript(prompt) });
    const responses = await startScriptedServer({ turns: demoScript(prompt) });
    try {
      const base = {
        client: chat.client(),
        body: { model: 'scripted-demo-model', messages: [{ role: 'user' as const, content: prompt }] },
        tools: sampleTools(),
      };
      let result = await runAgentLoop(base);
      const answers: Decision[] = [{ approve: true }, { approve: false, reason: 'Only Alex, please' }];
      while (result.stopReason === 'interactive') {
        const decisions = Object.fromEntries(result.state.pending.map((p) => [p.call.id, answers.shift()!]));
        result = await runAgentLoop({ ...base, resumeFrom: result.state, decisions });
      }
      expect(result.stopReason).toBe('completed');

      // The chat wire sends reasoning back as `reasoning_content`; the Responses wire keeps reasoning items instead.
      const histories = chat.requests.map((r) =>
        r.body.messages.map((message) => {
          const { reasoning_content: _chatOnly, ...rest } = message as typeof message & { reasoning_content?: string };
          return rest;
        }),
      );
      let last: OpenAI.Responses.Response | undefined;
      for (const messages of histories) {
        last = await responses
          .client()
          .responses.create({ model: 'scripted-demo-model', input: toResponsesInput(messages) });
      }

      // Every turn function read the same history on both routes, and the last one wrote the same answer.
      expect(responses.requests.map((r) => r.body.messages)).toEqual(histories);
      expect(last?.output_text).toBe(result.text);
    } finally {
      await chat.close();
      await responses.close();
    }
  });
});
