import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { LLMClient } from '../../src/llm/client';
import { createLLMResponse } from '../../src/llm/request';
import { startScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;

describe('lean stream reader', () => {
  it('falls back to the SDK iterator for a stand-in client whose create has no asResponse', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'plain promise' }] });
    try {
      const real = server.client();
      let calls = 0;
      const standIn = {
        chat: {
          completions: {
            create: (body: never, options: never) => {
              calls++;
              return Promise.resolve(real.chat.completions.create(body, options));
            },
          },
        },
      } as unknown as LLMClient;
      const res = await createLLMResponse({ client: standIn, body: { model: 'm', messages: [user('hi')] } });
      expect(calls).toBe(1);
      expect(res.error).toBeUndefined();
      expect(res.answerText).toBe('plain promise');
    } finally {
      await server.close();
    }
  });

  describe('against an endless stream', () => {
    let server: Server;
    let client: OpenAI;
    let closed: Promise<number>;
    let errorAt = -1;
    beforeEach(async () => {
      let resolveClosed: (writes: number) => void;
      closed = new Promise((resolve) => (resolveClosed = resolve));
      server = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let writes = 0;
        const timer = setInterval(
          () =>
            res.write(writes === errorAt ? 'data: {"error": {"message": "overloaded"}}\n\n' : chunk(`${writes++} `)),
          5,
        );
        res.on('close', () => {
          clearInterval(timer);
          resolveClosed(writes);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      client = new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    });
    afterEach(async () => {
      errorAt = -1;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('closes the connection when the caller leaves early', async () => {
      let seen = 0;
      const res = await createLLMResponse({
        client,
        streamParser: 'lean',
        body: { model: 'm', messages: [user('hi')] },
        isAborted: () => seen >= 3,
        onStreaming: () => seen++,
      });
      expect(res.finish_reason).toBe('close');
      expect(res.answerText).toBe('0 1 2 ');
      // The server sees the socket close: it stops writing instead of streaming into a reader that left.
      await expect(closed).resolves.toBeGreaterThanOrEqual(3);
    });

    it('returns an in-band error after a 200 as the SDK APIError, and closes the connection', async () => {
      errorAt = 2;
      const res = await createLLMResponse({
        client,
        streamParser: 'lean',
        body: { model: 'm', messages: [user('hi')] },
      });
      expect(res.error).toBeInstanceOf(OpenAI.APIError);
      expect((res.error as Error).message).toBe('overloaded');
      expect(res.finish_reason).toBe('error');
      expect(res.answerText).toBe('0 1 ');
      await expect(closed).resolves.toBe(2);
    });

    it('ends quietly with finish_reason close when the abort signal fires mid-stream', async () => {
      const controller = new AbortController();
      const res = await createLLMResponse({
        client,
        streamParser: 'lean',
        body: { model: 'm', messages: [user('hi')] },
        abortSignal: controller.signal,
        onStreaming: ({ text }) => {
          if (text === '4 ') controller.abort();
        },
      });
      expect(res.error).toBeUndefined();
      expect(res.finish_reason).toBe('close');
      expect(res.answerText).toBe('0 1 2 3 4 ');
      await closed;
    });
  });
});
