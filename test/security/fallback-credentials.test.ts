import { runAgentLoop } from '../../src/run-agent-loop';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

/** What a primary's requests carry that belongs to it alone, beside one header the app shares. */
const PRIMARY_HEADERS = {
  Authorization: 'Bearer primary-secret',
  'api-key': 'azure-primary-secret',
  'x-gateway-key': 'gateway-secret',
  'X-Trace-Id': 'trace-1',
};

describe("fallback entries never get the primary's credentials", () => {
  let primary: ScriptedServer;
  let other: ScriptedServer;
  beforeEach(async () => {
    [primary, other] = await Promise.all([startScriptedServer(), startScriptedServer()]);
  });
  afterEach(() => Promise.all([primary.close(), other.close()]));

  it('sends an entry with its own client only what it configures, and the headers marked shared', async () => {
    primary.enqueue({ status: 503, errorMessage: 'overloaded' });
    other.enqueue({ text: 'answer' });
    const result = await runAgentLoop({
      client: primary.client({ maxRetries: 0 }),
      body: { model: 'm-primary', messages: [user('hi')] },
      tools: [],
      requestOptions: { headers: PRIMARY_HEADERS },
      fallback: [
        {
          model: 'm-other',
          client: other.client(),
          headers: { 'x-entry': 'entry-value' },
          sharedHeaders: ['x-trace-id'],
        },
      ],
    });

    expect(result.stopReason).toBe('completed');
    expect(primary.requests[0].headers.authorization).toBe('Bearer primary-secret');
    const sent = other.requests[0].headers;
    expect(sent.authorization).toMatch(/^Bearer sk-scripted/);
    expect(sent['api-key']).toBeUndefined();
    expect(sent['x-gateway-key']).toBeUndefined();
    expect(sent['x-trace-id']).toBe('trace-1');
    expect(sent['x-entry']).toBe('entry-value');
    expect(JSON.stringify(sent)).not.toContain('secret');
  });

  it("sends an entry on the run's own client the run's headers, then its own", async () => {
    primary.enqueue({ status: 503, errorMessage: 'overloaded' }, { text: 'answer' });
    const result = await runAgentLoop({
      client: primary.client({ maxRetries: 0 }),
      body: { model: 'm-primary', messages: [user('hi')] },
      tools: [],
      requestOptions: { headers: { 'x-gateway-key': 'gateway-secret', 'x-mode': 'primary' } },
      fallback: [{ model: 'm-other', headers: { 'x-mode': 'fallback' } }],
    });

    expect(result.stopReason).toBe('completed');
    expect(primary.requests[1].headers['x-gateway-key']).toBe('gateway-secret');
    expect(primary.requests[1].headers['x-mode']).toBe('fallback');
  });
});
