import { createHook } from 'node:async_hooks';
import type OpenAI from 'openai';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { stretchedTimeout } from '../helpers/stretched-timeout';
import { collectStream, emptyCollected } from './collect-stream';

const USER = [{ role: 'user' as const, content: 'hi' }];

describe('startScriptedServer: broken streams, stalls and shutdown', () => {
  let server: ScriptedServer;
  let openai: OpenAI;

  beforeEach(async () => {
    server = await startScriptedServer();
    // The SDK logs unparsable SSE data at 'error' level before rethrowing; keep test output clean.
    openai = server.client({ logLevel: 'off' });
  });
  afterEach(() => server.close());

  const stream = () => openai.chat.completions.create({ model: 'm', messages: USER, stream: true });

  it('cutAfter: the SDK delivers exactly the events sent, then for-await throws TypeError "terminated"', async () => {
    server.enqueue({ text: 'abcdefghijklmnop', chunkSize: 4, cutAfter: 3 });
    const got = emptyCollected();

    const error = await collectStream(await stream(), got).catch((e: unknown) => e);

    // undici's TypeError comes from Node's realm, not jest's: `instanceof TypeError` is false under jest.
    expect(error).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(String((error as Error).cause)).toMatch(/other side closed/);
    expect(got.chunks).toHaveLength(3); // role, 'abcd', 'efgh'
    expect(got.text).toBe('abcdefgh');
    expect(got.finishReason).toBeNull();
  });

  it('cutAfter: 0 answers 200 and dies before the first event: create() resolves, iteration throws', async () => {
    server.enqueue({ text: 'never sent', cutAfter: 0 });
    const got = emptyCollected();

    const response = await stream();
    const error = await collectStream(response, got).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(got.chunks).toHaveLength(0);
  });

  it('cutAfter with chunkDelayMs still cuts after that many events', async () => {
    server.enqueue({ text: 'abcdefgh', chunkSize: 2, chunkDelayMs: 5, cutAfter: 2 });
    const got = emptyCollected();

    await expect(collectStream(await stream(), got)).rejects.toThrow('terminated');

    expect(got.text).toBe('ab');
  });

  it('malformedChunkAt: iteration throws a SyntaxError at that event, after the ones before it', async () => {
    server.enqueue({ text: 'abcdefgh', chunkSize: 4, malformedChunkAt: 2 });
    const got = emptyCollected();

    const error = await collectStream(await stream(), got).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SyntaxError);
    expect(got.chunks).toHaveLength(2);
    expect(got.text).toBe('abcd');
  });

  it('streamErrorAt: an in-stream {"error": ...} event throws APIError without a status', async () => {
    server.enqueue({ text: 'abcdefgh', chunkSize: 4, streamErrorAt: 1, errorMessage: 'overloaded mid-stream' });
    const got = emptyCollected();

    const error = await collectStream(await stream(), got).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: undefined, message: 'overloaded mid-stream', code: 'scripted_stream_error' });
    expect(got.chunks).toHaveLength(1);
  });

  it('delayMs beyond the client timeout: create() rejects with an APIConnectionError near the timeout', async () => {
    server.enqueue({ text: 'too late', delayMs: 10_000 });
    const started = Date.now();

    const error = await openai.chat.completions
      .create({ model: 'm', messages: USER, stream: true }, { timeout: 150 })
      .catch((e: unknown) => e);

    const elapsed = Date.now() - started;
    // Plain Node gives the subclass APIConnectionTimeoutError('Request timed out.'). Under jest the fetch
    // AbortError is a DOMException from another realm, the SDK's castToError turns it into Error('{}') and the
    // timeout is reported as a plain APIConnectionError('Connection error.'). Assert what holds in both.
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^(Request timed out\.|Connection error\.)$/);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(stretchedTimeout(5_000));
    expect(server.requests).toHaveLength(1);
  });

  it('the client timeout only covers the wait for headers, not a slow stream body', async () => {
    // 4 gaps of 150 ms between the 5 events outlast the 300 ms timeout; headers go out at once.
    server.enqueue({ text: 'abcdefgh', chunkSize: 4, chunkDelayMs: 150 });
    const started = Date.now();

    const response = await openai.chat.completions.create(
      { model: 'm', messages: USER, stream: true },
      { timeout: 300 },
    );
    const got = await collectStream(response);

    expect(Date.now() - started).toBeGreaterThan(300);
    expect(got.text).toBe('abcdefgh');
    expect(got.finishReason).toBe('stop');
  });

  it('aborting the signal mid-stream ends for-await quietly with the partial text (no throw)', async () => {
    server.enqueue({ text: 'abcdefghijklmnop', chunkSize: 2, chunkDelayMs: 40 });
    const controller = new AbortController();
    const response = await openai.chat.completions.create(
      { model: 'm', messages: USER, stream: true },
      { signal: controller.signal },
    );

    const got = emptyCollected();
    for await (const chunk of response) {
      got.chunks.push(chunk);
      got.text += chunk.choices[0]?.delta.content ?? '';
      if (got.text.length >= 4) controller.abort();
    }

    // Events already buffered when abort() runs may still be yielded; the rest of the stream never is.
    expect(got.text).toMatch(/^abcd/);
    expect(got.text.length).toBeLessThan(16);
    expect(got.chunks.some((c) => c.choices[0]?.finish_reason)).toBe(false);
  });

  it('aborting the signal during a stall rejects create() with APIUserAbortError', async () => {
    server.enqueue({ delayMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const error = await openai.chat.completions
      .create({ model: 'm', messages: USER, stream: true }, { signal: controller.signal })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  it('close() resolves promptly with a stalled request in flight, which fails with APIConnectionError', async () => {
    server.enqueue({ text: 'never', delayMs: 60_000 });
    const pending = openai.chat.completions.create({ model: 'm', messages: USER }).catch((e: unknown) => e);
    await waitFor(() => server.requests.length === 1);

    const started = Date.now();
    await server.close();

    // Promptly, not after the 60 s stall: the bound stretches with the load like every wait in the suite.
    expect(Date.now() - started).toBeLessThan(stretchedTimeout(1_000));
    const error = await pending;
    expect(error).toBeInstanceOf(APIConnectionError);
    await expect(server.close()).resolves.toBeUndefined(); // idempotent
  });

  it('close() also ends a stream paused between events', async () => {
    server.enqueue({ text: 'abcdefgh', chunkSize: 1, chunkDelayMs: 60_000 });
    const got = emptyCollected();
    const draining = collectStream(await stream(), got).catch((e: unknown) => e);
    await waitFor(() => got.chunks.length === 1);

    await server.close();

    expect(await draining).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(got.text).toBe('');
  });

  it('close() leaves no timer or listening socket behind, even with stalls pending', async () => {
    await nextLoopTurn(); // let the previous test's closed server release its handle first
    const before = activeResources();
    // Only the timers made from here on count: undici or jest may start or end timers of their own meanwhile.
    const timers = trackTimers();
    try {
      const local = await startScriptedServer({
        turns: [{ delayMs: 60_000 }, { text: 'abcdef', chunkSize: 1, chunkDelayMs: 60_000 }],
      });
      const client = local.client();
      const stalled = client.chat.completions.create({ model: 'm', messages: USER }).catch((e: unknown) => e);
      const got = emptyCollected();
      const paused = client.chat.completions
        .create({ model: 'm', messages: USER, stream: true })
        .then((s) => collectStream(s, got))
        .catch((e: unknown) => e);
      try {
        await waitFor(() => local.requests.length === 2 && got.chunks.length === 1);
        // The two stalls: a timer each that would keep the process alive for a minute.
        expect(timers.pending().filter((t) => t.delay === 60_000)).toHaveLength(2);
      } finally {
        // In finally so a failed wait cannot leave this server's 60 s stalls keeping jest alive.
        await local.close();
      }
      await Promise.all([stalled, paused]);
      await nextLoopTurn();

      // The stalls' own timers are gone; a short timer something else in the process made meanwhile is not the server's.
      expect(timers.pending().filter((t) => t.delay === 60_000)).toEqual([]);
      expect(activeResources().TCPServerWrap).toBe(before.TCPServerWrap);
    } finally {
      timers.stop();
    }
  });
});

/** Live Node handles by type, to prove close() released the server's listening socket. */
function activeResources(): { TCPServerWrap: number } {
  const counts = { TCPServerWrap: 0 };
  for (const type of process.getActiveResourcesInfo()) if (type === 'TCPServerWrap') counts[type]++;
  return counts;
}

/** A Node timer as async_hooks hands it over: `_destroyed` turns true once it fired or was cleared. */
type NodeTimer = NodeJS.Timeout & { _destroyed: boolean; _idleTimeout: number };

/**
 * Records every timer made until `stop`; `pending` lists those still waiting that keep the process alive (an
 * unref'd housekeeping timer, such as undici's, does not).
 */
function trackTimers(): { pending: () => { delay: number }[]; stop: () => void } {
  const made: NodeTimer[] = [];
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'Timeout') made.push(resource as NodeTimer);
    },
  }).enable();
  return {
    pending: () => made.filter((t) => !t._destroyed && t.hasRef()).map((t) => ({ delay: t._idleTimeout })),
    stop: () => hook.disable(),
  };
}

/** libuv drops a closed handle from the active list one loop turn after its close callback. */
function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
