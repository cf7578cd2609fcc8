import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '@dwmkerr/mock-llm/dist/server';
import type { Config } from '@dwmkerr/mock-llm/dist/config';
import OpenAI, { APIError } from 'openai';
import { runAgentLoop } from '../../src';
import { fakeTool, user } from '../helpers/tools';

/**
 * A loop against an OpenAI-compatible server nobody here wrote: @dwmkerr/mock-llm, in-process, answering by
 * JMESPath rules (last match wins): a user message gets a tool call, a tool message gets text.
 */
const TOOL_CALL = {
  id: 'chatcmpl-mock-1',
  object: 'chat.completion',
  model: 'mock',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_mock1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
};
const ANSWER = {
  id: 'chatcmpl-mock-2',
  object: 'chat.completion',
  model: 'mock',
  choices: [{ index: 0, message: { role: 'assistant', content: 'It is 18°C in Paris.' }, finish_reason: 'stop' }],
};

function config(): Config {
  return {
    streaming: { chunkSize: 5, chunkIntervalMs: 1 },
    rules: [
      {
        path: '/v1/chat/completions',
        method: 'POST',
        match: "body.messages[-1].role == 'user'",
        response: { status: 200, content: JSON.stringify(TOOL_CALL) },
      },
      {
        path: '/v1/chat/completions',
        method: 'POST',
        match: "body.messages[-1].role == 'tool'",
        response: { status: 200, content: JSON.stringify(ANSWER) },
      },
    ],
  };
}

describe('@dwmkerr/mock-llm: a server written elsewhere', () => {
  let http: Server;
  let client: OpenAI;
  const requests: { stream?: boolean; messages: { role: string; tool_call_id?: string }[] }[] = [];

  beforeAll(async () => {
    // It logs every request and its MCP routes; the test reads the requests itself.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = createServer(config(), '127.0.0.1', 0);
    http = await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    const { port } = http.address() as AddressInfo;
    client = new OpenAI({
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: 'x',
      maxRetries: 0,
      fetch: async (input, init) => {
        requests.push(JSON.parse(String(init?.body)) as (typeof requests)[number]);
        return fetch(input, init);
      },
    });
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    jest.restoreAllMocks();
  });
  beforeEach(() => (requests.length = 0));

  const weather = () => fakeTool('get_weather', () => ({ response: 'Paris: 18°C, sunny' }));

  it('not streamed: a tool-calling loop runs to completion', async () => {
    const tool = weather();
    const result = await runAgentLoop({
      client,
      body: { model: 'mock', stream: false, messages: [user('Weather in Paris?')] },
      tools: [tool],
    });

    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('It is 18°C in Paris.');
    expect(tool.calls.map((c) => c.call.function.arguments)).toEqual(['{"city":"Paris"}']);
    expect(requests).toHaveLength(2);
    expect(requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(requests[1].messages[2].tool_call_id).toBe('call_mock1');
  });

  it('streamed: a text answer streams to completion', async () => {
    const result = await runAgentLoop({
      client,
      body: {
        model: 'mock',
        stream: true,
        messages: [user('Weather?'), { role: 'tool', tool_call_id: 'call_x', content: 'sunny' }],
      },
      tools: [weather()],
    });

    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('It is 18°C in Paris.');
  });

  it('streamed: it cannot stream a tool call (it streams message.content only), so the request fails', async () => {
    const tool = weather();
    const result = await runAgentLoop({
      client,
      body: { model: 'mock', stream: true, messages: [user('Weather in Paris?')] },
      tools: [tool],
    });

    // Pinned so that a mock-llm release that streams tool calls shows up here (and in docs/testing.md).
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeInstanceOf(APIError);
    expect((result.error as APIError).status).toBe(500);
    expect(tool.calls).toHaveLength(0);
  });
});
