import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APIError } from 'openai';
import { recordedReply, startScriptedServer, type ScriptedServer } from '../../src/testing';
import { collectStream } from './collect-stream';

const USER = [{ role: 'user' as const, content: 'hi' }];
const event = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'r1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe('recorded replies: a response served byte for byte', () => {
  let server: ScriptedServer;
  let dir: string;

  beforeEach(async () => {
    server = await startScriptedServer();
    dir = mkdtempSync(join(tmpdir(), 'agentcall-recorded-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: object) =>
    fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: USER, ...body }),
    });

  it('serves a .sse file exactly, comments, CRLF and a missing [DONE] included, as text/event-stream', async () => {
    const file = join(dir, 'odd.sse');
    const bytes = `: source: somewhere\r\n\r\n${event({ content: 'héllo' }).replace('\n\n', '\r\n\r\n')}: keep-alive\n\n`;
    writeFileSync(file, bytes);
    server.enqueue(recordedReply(file));

    const response = await post({ stream: true });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(file))).toBe(true);
  });

  it('serves a .json file with its status to the SDK, which reads the error in it', async () => {
    const file = join(dir, 'error.json');
    writeFileSync(file, '{"error":{"message":"Overloaded","type":"overloaded_error"}}');
    server.enqueue(recordedReply(file, { status: 529 }));

    const error = await server
      .client()
      .chat.completions.create({ model: 'm', messages: USER })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 529, message: '529 Overloaded' });
  });

  it('writes body pieces one by one: an event and a UTF-8 character cut across reads still decode', async () => {
    const whole = Buffer.from(event({ role: 'assistant', content: 'Grüße' }) + event({}, 'stop') + 'data: [DONE]\n\n');
    const cut = whole.indexOf(Buffer.from('ü')) + 1; // inside the two bytes of ü
    server.enqueue({
      chunkDelayMs: 5,
      recorded: { body: [whole.subarray(0, 20), whole.subarray(20, cut), whole.subarray(cut)] },
    });

    const got = await collectStream(
      await server.client().chat.completions.create({ model: 'm', messages: USER, stream: true }),
    );

    expect(got.text).toBe('Grüße');
    expect(got.finishReason).toBe('stop');
  });

  it('without a content-type, follows the request: JSON for a plain request', async () => {
    server.enqueue({
      recorded: { body: '{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[]}' },
    });

    const response = await post({ stream: false });

    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({ id: 'c', choices: [] });
  });

  it('adds nothing of its own: other reply fields are ignored', async () => {
    server.enqueue({ text: 'not this', usage: null, recorded: { body: 'data: [DONE]\n\n' } });

    const response = await post({ stream: true });

    expect(await response.text()).toBe('data: [DONE]\n\n');
  });

  it('refuses a recorded reply it cannot serve, with a 500 naming the field', async () => {
    server.enqueue({ recorded: { status: 99, body: '' } });

    const response = await post({ stream: true });

    expect(response.status).toBe(500);
    expect(await response.text()).toContain('recorded.status must be an HTTP status');
  });
});
