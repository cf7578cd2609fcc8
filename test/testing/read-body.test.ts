import { startScriptedServer } from '../../src/testing';

describe('scripted server request body limit', () => {
  it('answers 413 to a body over maxBodyBytes without buffering it, and serves the next request', async () => {
    const server = await startScriptedServer({ maxBodyBytes: 4_096, turns: [{ text: 'fine' }] });
    try {
      const url = `${server.baseURL}/chat/completions`;
      const huge = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(100_000) }] });
      const refused = await fetch(url, { method: 'POST', body: huge, headers: { 'content-type': 'application/json' } });
      expect(refused.status).toBe(413);
      expect(await refused.json()).toMatchObject({ error: { code: 'request_too_large' } });
      expect(server.requests).toHaveLength(0);

      const answer = await server.client().chat.completions.create({ model: 'm', messages: [] });
      expect(answer.choices[0].message.content).toBe('fine');
    } finally {
      await server.close();
    }
  });
});
