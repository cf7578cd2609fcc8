import OpenAI, { APIConnectionError } from 'openai';
import { runAgentLoop } from '../../src/run-agent-loop';
import { MalformedResponseError, ModelConnectionError } from '../../src/errors';
import { createLLMResponse, type StreamParser } from '../../src/llm/request';
import { unusedPort } from '../helpers/network';
import { startBodyServer } from '../helpers/responses-server';
import { fakeTool, user } from '../helpers/tools';

const WIRES = [
  ['chat', '/chat/completions'],
  ['responses', '/responses'],
] as const;
const PARSERS: StreamParser[] = ['lean', 'sdk'];
const body = { model: 'm', messages: [user('hi')] };

describe('a streamed request answered with something that is not an event stream', () => {
  // Longer than what the message quotes, with a key inside the quoted part.
  const malformed = `{malformed json from a proxy, key sk-proj-${'a'.repeat(40)} and then ${'x'.repeat(200)}`;

  describe.each(WIRES)('%s wire', (wire) => {
    it.each(PARSERS)(
      '%s parser: the error names the content type and quotes the body, masked and cut',
      async (parser) => {
        const server = await startBodyServer([{ contentType: 'application/json', body: malformed }]);
        try {
          const res = await createLLMResponse({ client: server.client(), wire, streamParser: parser, body });
          expect(res.finish_reason).toBe('error');
          expect(res.error).toBeInstanceOf(MalformedResponseError);
          const message = (res.error as Error).message;
          expect(message).toMatch(
            /expected an event stream, got application\/json: \{malformed json from a proxy, key /,
          );
          expect(message).not.toContain('sk-proj-aaaa');
          expect(message).not.toContain('x'.repeat(120));
          expect(message).toMatch(/…$/);
        } finally {
          await server.close();
        }
      },
    );

    it.each(PARSERS)('%s parser: a run ends with that error, not "empty response"', async (parser) => {
      const server = await startBodyServer([{ contentType: 'application/json', body: '{malformed' }]);
      try {
        const result = await runAgentLoop({
          client: server.client(),
          wire,
          streamParser: parser,
          body,
          tools: [fakeTool('noop', () => ({ response: 'ok' }))],
        });
        expect(result.stopReason).toBe('error');
        expect(result.error).toBeInstanceOf(MalformedResponseError);
        expect((result.error as Error).message).toContain('expected an event stream, got application/json: {malformed');
      } finally {
        await server.close();
      }
    });

    it.each(PARSERS)('%s parser: an event stream sent as application/json is still read', async (parser) => {
      const events =
        wire === 'chat'
          ? 'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"hello"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
          : `event: response.completed\ndata: ${JSON.stringify({
              type: 'response.completed',
              response: {
                id: 'resp_1',
                status: 'completed',
                output: [{ type: 'message', id: 'm1', content: [{ type: 'output_text', text: 'hello' }] }],
              },
            })}\n\n`;
      const server = await startBodyServer([{ contentType: 'application/json', body: events }]);
      try {
        const res = await createLLMResponse({ client: server.client(), wire, streamParser: parser, body });
        expect(res.error).toBeUndefined();
        expect(res.answerText).toBe('hello');
      } finally {
        await server.close();
      }
    });
  });
});

describe('a model endpoint that cannot be reached', () => {
  describe.each(WIRES)('%s wire', (wire, path) => {
    it.each([
      ['lean', true],
      ['sdk', true],
      ['lean', false],
    ] as const)(
      '%s parser, streamed %s: the error names the URL without credentials and keeps the SDK error as cause',
      async (parser, stream) => {
        const port = await unusedPort();
        const client = new OpenAI({
          baseURL: `http://127.0.0.1:${port}/v1`,
          apiKey: 'sk-test-refused',
          defaultQuery: { 'api-key': 'sk-in-the-query' },
          maxRetries: 0,
        });
        const res = await createLLMResponse({ client, wire, streamParser: parser, body: { ...body, stream } });

        expect(res.error).toBeInstanceOf(ModelConnectionError);
        expect(ModelConnectionError.isInstance(res.error)).toBe(true);
        // What the SDK promised stays true of the error agentcall returns.
        expect(res.error).toBeInstanceOf(APIConnectionError);
        const error = res.error as ModelConnectionError;
        expect(error.name).toBe('ModelConnectionError');
        expect(error.url).toBe(`http://127.0.0.1:${port}/v1${path}`);
        expect(error.message).toContain(`http://127.0.0.1:${port}/v1${path}`);
        expect(error.message).toMatch(/ECONNREFUSED|fetch failed/);
        expect(error.message).not.toContain('sk-in-the-query');
        expect(error.cause).toBeInstanceOf(APIConnectionError);
        expect(error.cause.message).toBe('Connection error.');
      },
    );

    it('credentials in the base URL are left out of the message', async () => {
      const port = await unusedPort();
      const client = new OpenAI({
        baseURL: `http://alice:hunter2@127.0.0.1:${port}/v1`,
        apiKey: 'sk-test-refused',
        maxRetries: 0,
      });
      const result = await runAgentLoop({ client, wire, body, tools: [fakeTool('noop', () => ({ response: 'ok' }))] });
      expect(result.stopReason).toBe('error');
      expect(result.error).toBeInstanceOf(ModelConnectionError);
      const error = result.error as ModelConnectionError;
      expect(error.url).toBe(`http://127.0.0.1:${port}/v1${path}`);
      expect(error.message).not.toMatch(/alice|hunter2/);
    });
  });
});
