import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { ResponseTooLargeError } from '../../src/errors/response-too-large.error';
import { StreamIdleTimeoutError } from '../../src/errors/stream-idle-timeout.error';
import { readLeanStream } from '../../src/llm/stream/lean-stream';
import { createLLMResponse, type StreamParser } from '../../src/llm/request';
import { startScriptedServer } from '../../src/testing';
import type { ChunkReceiver } from '../../src/llm/stream/lean-stream';
import { user } from '../helpers/tools';

const PARSERS: StreamParser[] = ['lean', 'sdk'];
const messages = [user('hi')];

const event = (body: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', ...body })}\n\n`;
const content = (text: string) => event({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });

/** A server that answers every request with `write(res, n)` called every `everyMs` until `stopAfterMs`, then ends. */
async function drippingServer(write: (res: ServerResponse, n: number) => void, everyMs: number, stopAfterMs: number) {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let n = 0;
    const timer = setInterval(() => write(res, n++), everyMs);
    const stop = setTimeout(() => {
      clearInterval(timer);
      res.end('data: [DONE]\n\n');
    }, stopAfterMs);
    res.on('close', () => {
      clearInterval(timer);
      clearTimeout(stop);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    client: new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('maxResponseBytes counts what the response keeps, not the SSE around it', () => {
  it.each(PARSERS)(
    'lets through an answer under the cap streamed in 4-character deltas whose envelopes are far over it (%s)',
    async (streamParser) => {
      // 160,000 characters in 40,000 events of about 130 bytes each: about 5 MB of SSE for 160 KB of text.
      const text = 'abcd'.repeat(40_000);
      const server = await startScriptedServer({ turns: [{ text, chunkSize: 4 }] });
      try {
        const res = await createLLMResponse({
          client: server.client(),
          streamParser,
          body: { model: 'm', messages },
          maxResponseBytes: 200_000,
        });
        expect(res.error).toBeUndefined();
        expect(res.answerText).toBe(text);
      } finally {
        await server.close();
      }
    },
  );

  it.each(PARSERS)('refuses tool-call arguments past the cap, naming them (%s)', async (streamParser) => {
    const argumentChunks = Array.from({ length: 100 }, () => 'a'.repeat(200));
    argumentChunks[0] = '{"q":"';
    const server = await startScriptedServer({ turns: [{ toolCalls: [{ name: 'find', argumentChunks }] }] });
    try {
      const res = await createLLMResponse({
        client: server.client(),
        streamParser,
        body: { model: 'm', messages },
        maxResponseBytes: 10_000,
      });
      expect(res.error).toBeInstanceOf(ResponseTooLargeError);
      expect(res.error).toMatchObject({ what: 'response', part: 'arguments', limit: 10_000 });
      expect(res.finish_reason).toBe('error');
    } finally {
      await server.close();
    }
  });

  it.each(PARSERS)('refuses reasoning past the cap, keeping what came before (%s)', async (streamParser) => {
    const server = await startScriptedServer({ turns: [{ reasoning: 'r'.repeat(30_000), chunkSize: 1_000 }] });
    try {
      const res = await createLLMResponse({
        client: server.client(),
        streamParser,
        body: { model: 'm', messages },
        maxResponseBytes: 10_000,
      });
      expect(res.error).toMatchObject({ what: 'response', part: 'reasoning' });
      expect(res.reasoningText).toBe('r'.repeat(10_000));
    } finally {
      await server.close();
    }
  });

  it('counts a non-streamed answer the same way', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'é'.repeat(6_000) }] });
    try {
      const res = await createLLMResponse({
        client: server.client(),
        body: { model: 'm', messages, stream: false },
        // 6,000 characters are 12,000 bytes of UTF-8.
        maxResponseBytes: 11_999,
      });
      expect(res.error).toMatchObject({ what: 'response', part: 'answer', limit: 11_999 });
    } finally {
      await server.close();
    }
  });

  it('stops a stream of empty envelopes without end at the wire guard', async () => {
    const server = await drippingServer(
      (res) => {
        for (let i = 0; i < 50; i++) res.write(event({ choices: [{ index: 0, delta: {}, finish_reason: null }] }));
      },
      1,
      60_000,
    );
    try {
      const response = await fetch(new URL('chat/completions', server.client.baseURL + '/'), { method: 'POST' });
      const controller = new AbortController();
      let chunks = 0;
      const reading = readLeanStream(
        response,
        { receive: () => ++chunks > 0, endStream: () => undefined, progress: 0 },
        { controller, limits: { maxResponseBytes: 16 * 1024 * 1024, maxLineBytes: 1024, maxWireBytes: 200_000 } },
      );
      await expect(reading).rejects.toMatchObject({ what: 'wire', limit: 200_000 });
      expect(chunks).toBeGreaterThan(1_000);
    } finally {
      await server.close();
    }
  });
});

describe('a stream that sends nothing useful cannot outlive the request timeout', () => {
  const useless: [string, string][] = [
    ['empty deltas', event({ choices: [{ index: 0, delta: {}, finish_reason: null }] })],
    ['empty content', content('')],
    ['no choices', event({ choices: [] })],
    ['an empty object', 'data: {}\n\n'],
    ['keep-alive comments', ': keep-alive\n\n'],
    ['a tool-call delta that adds nothing', event({ choices: [{ index: 0, delta: { tool_calls: [] } }] })],
  ];

  it.each(PARSERS.flatMap((parser) => useless.map(([label, text]) => [parser, label, text] as const)))(
    '%s parser, %s every 20 ms against a 300 ms timeout',
    async (streamParser, _label, text) => {
      // The first write carries text, so the stream has begun; after it only useless events come, for 3 s.
      const server = await drippingServer((res, n) => res.write(n === 0 ? content('hi') : text), 20, 3_000);
      try {
        const res = await createLLMResponse({
          client: server.client,
          streamParser,
          body: { model: 'm', messages },
          requestOptions: { timeout: 300 },
        });
        expect(res.error).toBeInstanceOf(StreamIdleTimeoutError);
        // Ended by the timeout, not by the server's own end three seconds later (which would leave no error).
        expect(res.answerText).toBe('hi');
      } finally {
        await server.close();
      }
    },
  );

  it.each(PARSERS)('a slow stream that keeps bringing text is not cut (%s)', async (streamParser) => {
    const server = await drippingServer((res, n) => res.write(content(`${n} `)), 100, 1_200);
    try {
      const res = await createLLMResponse({
        client: server.client,
        streamParser,
        body: { model: 'm', messages },
        requestOptions: { timeout: 400 },
      });
      expect(res.error).toBeUndefined();
      expect(res.answerText).toMatch(/^0 1 2 3 4 5 6 7 8 9 /);
    } finally {
      await server.close();
    }
  });
});

describe('lines ended by a lone CR', () => {
  const events = (n: number, end: string) =>
    Array.from({ length: n }, (_, i) => content(`${i % 10}bcd`).replace(/\n/g, end)).join('');

  /** CPU milliseconds one read of `body` costs, read as one network chunk (best of three rounds). */
  async function readCost(body: string): Promise<number> {
    const receiver: ChunkReceiver = { receive: () => true, endStream: () => undefined, progress: 0 };
    const limits = { maxResponseBytes: 1e9, maxLineBytes: 1e9 };
    const read = () => readLeanStream(new Response(body), receiver, { controller: new AbortController(), limits });
    await read();
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      let calls = 0;
      let spent: number;
      const start = process.cpuUsage();
      do {
        await read();
        calls++;
        const used = process.cpuUsage(start);
        spent = (used.user + used.system) / 1000;
      } while (spent < 30);
      best = Math.min(best, spent / calls);
    }
    return best;
  }

  it('cost time linear in the stream, about what LF costs', async () => {
    const bodies = { small: events(2_000, '\r'), large: events(20_000, '\r'), lf: events(20_000, '\n') };
    // Taken in turns, best of three each, so a moment of load elsewhere moves no side alone.
    const best = { small: Infinity, large: Infinity, lf: Infinity };
    for (let round = 0; round < 3; round++)
      for (const key of ['small', 'large', 'lf'] as const) best[key] = Math.min(best[key], await readCost(bodies[key]));
    // About 10x for 10x more events, never about 100x (what re-scanning for an LF at every line cost).
    expect(best.large / best.small).toBeLessThan(30);
    expect(best.large / best.lf).toBeLessThan(3);
  });

  it.each(PARSERS)(
    'are lines for the line cap too: a 3 MB stream of short lines is read whole (%s)',
    async (streamParser) => {
      const body = `${events(26_000, '\r')}data: [DONE]\r\r`;
      expect(body.length).toBeGreaterThan(3_000_000);
      const server = await startScriptedServer({ turns: [{ recorded: { body } }] });
      try {
        const res = await createLLMResponse({ client: server.client(), streamParser, body: { model: 'm', messages } });
        expect(res.error).toBeUndefined();
        expect(res.answerText).toHaveLength(26_000 * 4);
      } finally {
        await server.close();
      }
    },
  );
});
