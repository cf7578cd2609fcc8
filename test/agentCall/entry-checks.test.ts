import { InvalidWireError, MissingCredentialsError, OutputSchemaError, runAgentLoop, type Wire } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';

/** What a run cannot start with ends it before any request, as a result: `runAgentLoop` never rejects. */
describe('runAgentLoop refuses, as a result, what it cannot start with', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  const body = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

  describe('no client and no key', () => {
    const saved = process.env.OPENAI_API_KEY;
    beforeEach(() => {
      delete process.env.OPENAI_API_KEY;
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    });

    it.each([
      ['nothing', {}],
      ['a base URL without a key', { userKey: { baseUrl: 'http://127.0.0.1:9/v1' } }],
      ['an empty key', { userKey: { key: '' } }],
    ])('with %s: stopReason error, a MissingCredentialsError that says where a key goes', async (_name, given) => {
      const result = await runAgentLoop({ body, tools: [], ...given });
      expect(result.stopReason).toBe('error');
      expect(MissingCredentialsError.isInstance(result.error)).toBe(true);
      expect(result.error?.message).toMatch(/client/);
      expect(result.error?.message).toMatch(/userKey/);
      expect(result.error?.message).toMatch(/OPENAI_API_KEY/);
      expect(result.runTimes).toBe(0);
      expect(result.completeMessages).toEqual(body.messages);
    });
  });

  it('an unknown wire: an InvalidWireError naming it and the accepted ones, before any request', async () => {
    const before = server.requests.length;
    // A plain-JavaScript caller, or a value read from configuration, is not held to the type.
    const result = await runAgentLoop({ client: server.client(), body, tools: [], wire: 'responsez' as Wire });
    expect(result.stopReason).toBe('error');
    expect(InvalidWireError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/"responsez"/);
    expect(result.error?.message).toMatch(/'auto', 'chat' or 'responses'/);
    expect(server.requests.length).toBe(before);
  });

  it('an output class with no decorated field: an OutputSchemaError naming the class, before any request', async () => {
    class Summary {
      title!: string;
    }
    const before = server.requests.length;
    const result = await runAgentLoop({ client: server.client(), body, tools: [], output: Summary });
    expect(result.stopReason).toBe('error');
    expect(OutputSchemaError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/Summary/);
    expect(result.error?.message).toMatch(/@Param/);
    expect(server.requests.length).toBe(before);
  });
});
