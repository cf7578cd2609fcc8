import OpenAI, { type APIError } from 'openai';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { collectStream } from './collect-stream';
import { stretchedTimeout } from '../helpers/stretched-timeout';

describe('startScriptedServer: sessions and exhausted scripts', () => {
  let server: ScriptedServer;

  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const ask = (client: OpenAI, content: string) =>
    client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content }], stream: true })
      .then(collectStream);

  it('two sessions used concurrently each consume their own script', async () => {
    const a = server.session([{ text: 'a1', delayMs: 30 }, { text: 'a2' }]);
    const b = server.session([{ text: 'b1' }, { text: 'b2', delayMs: 10 }]);
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.baseURL).toBe(server.baseURL);

    const [a1, b1] = await Promise.all([ask(a.client(), 'qa1'), ask(b.client(), 'qb1')]);
    const [b2, a2] = await Promise.all([ask(b.client(), 'qb2'), ask(a.client(), 'qa2')]);

    expect([a1.text, a2.text, b1.text, b2.text]).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(a.requests.map((r) => r.body.messages[0].content)).toEqual(['qa1', 'qa2']);
    expect(b.requests.map((r) => r.body.messages[0].content)).toEqual(['qb1', 'qb2']);
    expect(a.requests.map((r) => r.turnIndex)).toEqual([0, 1]);
    expect(a.requests.every((r) => r.apiKey === a.apiKey)).toBe(true);
    expect(server.requests).toHaveLength(4);
    expect(server.requests.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect([a.pending(), b.pending(), server.pending()]).toEqual([0, 0, 0]);
  });

  it(
    '200 concurrent sessions with interleaved stalls never cross-talk',
    async () => {
      const sessions = Array.from({ length: 200 }, (_, i) =>
        server.session([
          (request) => ({
            text: `session ${i} saw ${String(request.body.messages[0].content)}`,
            delayMs: (i * 7) % 20,
          }),
          { text: `session ${i} second`, chunkSize: 3 },
        ]),
      );

      const results = await Promise.all(
        sessions.map(async (session, i) => {
          const client = session.client();
          const first = await ask(client, `q${i}`);
          const second = await ask(client, `q${i}b`);
          return [first.text, second.text];
        }),
      );

      results.forEach(([first, second], i) => {
        expect(first).toBe(`session ${i} saw q${i}`);
        expect(second).toBe(`session ${i} second`);
      });
      expect(server.requests).toHaveLength(400);
      expect(sessions.every((s) => s.pending() === 0 && s.requests.length === 2)).toBe(true);
    },
    stretchedTimeout(60_000),
  ); // 400 SDK round trips: ~1.5 s alone, far more on a saturated 2-core box

  it('answers an exhausted default script with 500 "no scripted turn left for request #<index>"', async () => {
    server.enqueue({ text: 'only one' });
    const client = server.client();
    await ask(client, 'first');

    const error = await ask(client, 'second').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).message).toBe('500 scripted server: no scripted turn left for request #1');
    expect(server.requests[1].body.messages[0].content).toBe('second');
  });

  it('an exhausted session never falls back to the default script', async () => {
    const session = server.session([]);
    server.enqueue({ text: 'for the default script' });

    const error = await ask(session.client(), 'q').catch((e: unknown) => e);

    expect((error as APIError).message).toBe('500 scripted server: no scripted turn left for request #0');
    expect(server.pending()).toBe(1);
    expect(session.requests).toHaveLength(1);
  });

  it('session.enqueue appends to that session only', async () => {
    const session = server.session();
    session.enqueue({ text: 'late turn' });

    expect(session.pending()).toBe(1);
    expect(server.pending()).toBe(0);
    expect((await ask(session.client(), 'q')).text).toBe('late turn');
  });

  it('serves a hand-built client with an unknown key from the default script', async () => {
    server.enqueue({ text: 'default answer' });
    const client = new OpenAI({ apiKey: 'whatever', baseURL: server.baseURL, maxRetries: 0 });

    const got = await ask(client, 'q');

    expect(got.text).toBe('default answer');
    expect(server.requests[0].apiKey).toBe('whatever');
  });
});
