import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { recordedReply, startScriptedServer, type ScriptedServer } from '../../src/testing';
import { collectResponseStream, emptyResponseStream } from './collect-response-stream';
import { arrived, fetchWithAbortHeldUntil } from '../helpers/held-abort-fetch';

const INPUT = [{ role: 'user' as const, content: 'hi' }];

const sse = (data: { type: string } & Record<string, unknown>) =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
const delta = (sequence_number: number, text: string) => ({
  type: 'response.output_text.delta',
  sequence_number,
  item_id: 'msg_1',
  output_index: 0,
  content_index: 0,
  delta: text,
  logprobs: [],
});

describe('startScriptedServer: broken Responses streams, stalls and recordings', () => {
  let server: ScriptedServer;
  let openai: OpenAI;

  beforeEach(async () => {
    server = await startScriptedServer();
    // The SDK logs unparsable SSE data at 'error' level before rethrowing; keep test output clean.
    openai = server.client({ logLevel: 'off' });
  });
  afterEach(() => server.close());

  const stream = (options?: OpenAI.RequestOptions) =>
    openai.responses.create({ model: 'm', input: INPUT, stream: true }, options);
  const raw = async (body: object) => {
    const response = await fetch(`${server.baseURL}/responses`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', input: 'x', ...body }),
    });
    return { response, text: await response.text() };
  };

  it('cutAfter: exactly that many events arrive, then for-await throws TypeError "terminated"', async () => {
    server.enqueue({ text: 'abcdefghijklmnop', chunkSize: 4, cutAfter: 6 });
    const got = emptyResponseStream();

    const error = await collectResponseStream(await stream(), got).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'TypeError', message: 'terminated' });
    // created, in_progress, item added, part added, 'abcd', 'efgh'
    expect(got.events).toHaveLength(6);
    expect(got.text).toBe('abcdefgh');
    expect(got.final).toBeUndefined();
  });

  it('cutAfter: 0 answers 200 and dies before the first event', async () => {
    server.enqueue({ text: 'never sent', cutAfter: 0 });
    const got = emptyResponseStream();

    const error = await collectResponseStream(await stream(), got).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(got.events).toHaveLength(0);
  });

  it('malformedChunkAt: iteration throws a SyntaxError at that event, after the ones before it', async () => {
    server.enqueue({ text: 'abcdefgh', chunkSize: 4, malformedChunkAt: 5 });
    const got = emptyResponseStream();

    const error = await collectResponseStream(await stream(), got).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SyntaxError);
    expect(got.events).toHaveLength(5);
    expect(got.text).toBe('abcd');
  });

  it('streamErrorAt: an error event then response.failed end the stream; the SDK throws APIError without a status', async () => {
    server.enqueue({ text: 'abcdefgh', chunkSize: 4, streamErrorAt: 2, errorMessage: 'overloaded mid-stream' });
    server.enqueue({ text: 'abcdefgh', chunkSize: 4, streamErrorAt: 2, errorMessage: 'overloaded mid-stream' });
    const got = emptyResponseStream();

    const error = await collectResponseStream(await stream(), got).catch((e: unknown) => e);
    const { text } = await raw({ stream: true });

    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: undefined, message: 'overloaded mid-stream', code: 'scripted_stream_error' });
    expect(got.events.map((e) => e.type)).toEqual(['response.created', 'response.in_progress']);
    const events = text
      .split('\n\n')
      .filter(Boolean)
      .map((event) => JSON.parse(event.split('\ndata: ')[1]) as Record<string, unknown>);
    expect(events.slice(2)).toEqual([
      {
        type: 'error',
        sequence_number: 2,
        error: { type: 'server_error', code: 'scripted_stream_error', message: 'overloaded mid-stream', param: null },
      },
      {
        type: 'response.failed',
        sequence_number: 3,
        response: expect.objectContaining({
          status: 'failed',
          error: { code: 'server_error', message: 'overloaded mid-stream' },
          output: [],
        }),
      },
    ]);
  });

  it('delayMs beyond the client timeout: create() rejects with an APIConnectionError', async () => {
    server.enqueue({ text: 'too late', delayMs: 10_000 });
    // The SDK's timer starts before the request is sent: held until the server has it, it always cuts the stall.
    const client = server.client({
      logLevel: 'off',
      fetch: fetchWithAbortHeldUntil((response) => arrived(server, 1, response)),
    });

    const error = await client.responses
      .create({ model: 'm', input: INPUT, stream: true }, { timeout: 150 })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it('chunkDelayMs paces the events: aborting mid-stream ends for-await quietly with part of the text', async () => {
    // The first piece carries the text up to 'abcd'; the rest waits a minute, so the abort always lands mid-stream
    // however slowly this process reads.
    const head = [
      sse({
        type: 'response.created',
        sequence_number: 0,
        response: { id: 'resp_p', status: 'in_progress', output: [] },
      }),
      sse(delta(1, 'ab')),
      sse(delta(2, 'cd')),
    ].join('');
    const tail =
      sse(delta(3, 'efgh')) +
      sse({
        type: 'response.completed',
        sequence_number: 4,
        response: { id: 'resp_p', status: 'completed', output: [] },
      });
    server.enqueue({
      recorded: { body: [head, tail], headers: { 'content-type': 'text/event-stream' } },
      chunkDelayMs: 60_000,
    });
    const controller = new AbortController();
    const response = await stream({ signal: controller.signal });

    let text = '';
    const types: string[] = [];
    for await (const event of response) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (text.length >= 4) controller.abort();
    }

    expect(text).toBe('abcd');
    expect(types).not.toContain('response.completed');
  });

  it('aborting during a stall rejects create() with APIUserAbortError', async () => {
    server.enqueue({ delayMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const error = await stream({ signal: controller.signal }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  describe('recorded replies', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'agentcall-responses-recorded-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('serves a recorded Responses stream byte for byte, and the SDK reads it', async () => {
      const file = join(dir, 'answer.sse');
      writeFileSync(
        file,
        ': recorded\n\n' +
          sse({
            type: 'response.output_text.delta',
            sequence_number: 0,
            item_id: 'msg_1',
            output_index: 0,
            content_index: 0,
            delta: 'Grüße',
            logprobs: [],
          }) +
          sse({
            type: 'response.completed',
            sequence_number: 1,
            response: { id: 'resp_1', status: 'completed', output: [] },
          }),
      );
      server.enqueue(recordedReply(file), recordedReply(file));

      const got = await collectResponseStream(await stream());
      const { response, text } = await raw({ stream: true });

      expect(got.text).toBe('Grüße');
      expect(got.final).toMatchObject({ id: 'resp_1', status: 'completed' });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(Buffer.from(text).equals(readFileSync(file))).toBe(true);
    });

    it('without a content-type, follows the request: JSON for a non-stream Responses request', async () => {
      server.enqueue({ recorded: { body: '{"id":"resp_r","object":"response","status":"completed","output":[]}' } });

      const response = await openai.responses.create({ model: 'm', input: INPUT });

      expect(response).toMatchObject({ id: 'resp_r', output: [] });
    });
  });
});
