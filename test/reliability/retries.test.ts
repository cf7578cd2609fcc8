import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '@dwmkerr/mock-llm/dist/server';
import type { Config } from '@dwmkerr/mock-llm/dist/config';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import OpenAI from 'openai';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RequestEndEvent } from '../../src/agentCall/type';
import { createLLMResponse, type StreamParser } from '../../src/llm/request';
import { fetchWithRetryAfterMs, unusedPort } from '../helpers/network';
import { responseJson, responseStream, startBodyServer, type ServedBody } from '../helpers/responses-server';
import { fakeTool, user } from '../helpers/tools';

/**
 * The SDK retries a 5xx, a 429 or a refused connection by itself (twice by default). Against a scripted mock that
 * answers in order, a retry takes the next reply: the run can end `completed` with the tool never run. The retries
 * must be visible in `onRequestEnd`, the result and the `chat` span.
 */
describe('@dwmkerr/mock-llm streamed, with the SDK retrying: the retry that took the next reply is reported', () => {
  // mock-llm cannot stream a tool call: its first reply fails with a 500 after the sequence moved on.
  const config: Config = {
    streaming: { chunkSize: 5, chunkIntervalMs: 1 },
    rules: [
      {
        path: '/v1/chat/completions',
        method: 'POST',
        sequence: 0,
        response: {
          status: 200,
          content: JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            model: 'mock',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    {
                      id: 'call_1',
                      type: 'function',
                      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                    },
                  ],
                },
                finish_reason: 'tool_calls',
              },
            ],
          }),
        },
      },
      {
        path: '/v1/chat/completions',
        method: 'POST',
        sequence: 1,
        response: {
          status: 200,
          content: JSON.stringify({
            id: 'chatcmpl-2',
            object: 'chat.completion',
            model: 'mock',
            choices: [
              { index: 0, message: { role: 'assistant', content: 'It is 18°C in Paris.' }, finish_reason: 'stop' },
            ],
          }),
        },
      },
    ],
  };
  let http: Server;
  let baseURL: string;

  beforeAll(async () => {
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = createServer(config, '127.0.0.1', 0);
    http = await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    baseURL = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    jest.restoreAllMocks();
  });

  it('the run "completes" without the tool, and onRequestEnd and the chat span say 1 retry', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tool = fakeTool('get_weather', () => ({ response: 'Paris: 18°C' }));
    const ends: RequestEndEvent[] = [];
    // The SDK's default retries; only the wait between attempts is shortened.
    const client = new OpenAI({ baseURL, apiKey: 'x', fetch: fetchWithRetryAfterMs(1) });
    const result = await runAgentLoop({
      client,
      body: { model: 'mock', stream: true, messages: [user('Weather in Paris?')] },
      tools: [tool],
      onRequestEnd: (e) => ends.push(e),
      tracer: provider.getTracer('retries-test'),
    });

    // The trap itself: a green run whose tool never ran.
    expect(result.stopReason).toBe('completed');
    expect(tool.calls).toHaveLength(0);
    // What makes it visible.
    expect(ends.map((e) => e.retries)).toEqual([1]);
    const [chat] = exporter.getFinishedSpans().filter((span) => span.name === 'chat mock');
    expect(chat.attributes['agentcall.request.retries']).toBe(1);
    await provider.shutdown();
  });
});

describe('retries are counted on both wires, both parsers, streamed or not', () => {
  const failure: ServedBody = { status: 500, contentType: 'application/json', body: '{"error":{"message":"busy"}}' };
  const chatAnswer = (stream: boolean): ServedBody =>
    stream
      ? {
          body: 'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
        }
      : {
          contentType: 'application/json',
          body: JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          }),
        };
  const answer = (wire: 'chat' | 'responses', stream: boolean): ServedBody =>
    wire === 'chat'
      ? chatAnswer(stream)
      : stream
        ? responseStream([{ type: 'message', text: ['ok'] }])
        : responseJson([{ type: 'message', text: ['ok'] }]);
  const cases: [wire: 'chat' | 'responses', parser: StreamParser, stream: boolean][] = [
    ['chat', 'lean', true],
    ['chat', 'sdk', true],
    ['chat', 'lean', false],
    ['responses', 'lean', true],
    ['responses', 'sdk', true],
    ['responses', 'lean', false],
  ];

  it.each(cases)(
    '%s wire, %s parser, streamed %s: 2 failures then an answer is 2 retries',
    async (wire, parser, stream) => {
      const server = await startBodyServer([failure, failure, answer(wire, stream)]);
      try {
        const client = new OpenAI({
          apiKey: 'x',
          baseURL: server.baseURL,
          maxRetries: 2,
          fetch: fetchWithRetryAfterMs(1),
        });
        const res = await createLLMResponse({
          client,
          wire,
          streamParser: parser,
          body: { model: 'm', stream, messages: [user('hi')] },
        });
        expect(res.error).toBeUndefined();
        expect(res.answerText).toBe('ok');
        expect(res.retries).toBe(2);
        expect(server.requests).toHaveLength(3);
      } finally {
        await server.close();
      }
    },
  );

  it.each(cases)('%s wire, %s parser, streamed %s: no retry is 0', async (wire, parser, stream) => {
    const server = await startBodyServer([answer(wire, stream)]);
    try {
      const res = await createLLMResponse({
        client: server.client(),
        wire,
        streamParser: parser,
        body: { model: 'm', stream, messages: [user('hi')] },
      });
      expect(res.answerText).toBe('ok');
      expect(res.retries).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("a body serialized by a create wrapper or by a debug logger is not counted as the SDK's attempt", async () => {
    const server = await startBodyServer([chatAnswer(true)]);
    try {
      const logged: string[] = [];
      const log = (...args: unknown[]) => void logged.push(JSON.stringify(args));
      const client = new OpenAI({
        apiKey: 'x',
        baseURL: server.baseURL,
        maxRetries: 0,
        logLevel: 'debug',
        logger: { debug: log, info: log, warn: log, error: log },
      });
      const create = client.chat.completions.create.bind(client.chat.completions);
      const sent: string[] = [];
      client.chat.completions.create = ((body: object, options?: object) => {
        sent.push(JSON.stringify(body));
        return create(body as never, options);
      }) as typeof client.chat.completions.create;
      const res = await createLLMResponse({ client, body: { model: 'm', messages: [user('hi')] } });
      expect(res.answerText).toBe('ok');
      expect(res.retries).toBe(0);
      // Both did serialize the body.
      expect(sent).toHaveLength(1);
      expect(logged.some((line) => line.includes('"messages"'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('a failure that outlasts the retries reports them with the error', async () => {
    const server = await startBodyServer([failure, failure]);
    try {
      const client = new OpenAI({
        apiKey: 'x',
        baseURL: server.baseURL,
        maxRetries: 1,
        fetch: fetchWithRetryAfterMs(1),
      });
      const ends: RequestEndEvent[] = [];
      const result = await runAgentLoop({
        client,
        body: { model: 'm', messages: [user('hi')] },
        tools: [],
        onRequestEnd: (e) => ends.push(e),
      });
      expect(result.stopReason).toBe('error');
      expect(ends.map((e) => e.retries)).toEqual([1]);
    } finally {
      await server.close();
    }
  });

  it('a refused connection retried once reports 1 retry', async () => {
    const port = await unusedPort();
    const client = new OpenAI({ apiKey: 'x', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 1 });
    const res = await createLLMResponse({ client, body: { model: 'm', messages: [user('hi')] } });
    expect(res.error).toBeDefined();
    expect(res.retries).toBe(1);
  });
});
