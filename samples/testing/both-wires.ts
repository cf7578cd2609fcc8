import assert from 'node:assert/strict';
import { runAgentLoop } from '../../src';
import { startScriptedServer, type RecordedRequest } from '../../src/testing';
import { weatherTool } from '../handwritten/weather-tool';

/** One turn function answers both wires: it reads the request in chat shape, whichever API it came by. */
export async function checkBothWires(): Promise<void> {
  const echo = (request: RecordedRequest) => {
    const last = request.body.messages.at(-1);
    return { text: `You said: ${typeof last?.content === 'string' ? last.content : ''}` };
  };
  const server = await startScriptedServer({ turns: [echo, echo] });
  try {
    const body = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
    // Chat Completions: what `wire: 'auto'` (the default) speaks to any base URL but OpenAI's own.
    const chat = await runAgentLoop({ client: server.client(), body, tools: [weatherTool], wire: 'chat' });
    assert.equal(chat.text, 'You said: hi');

    // The Responses API, streamed: the same script, as OpenAI's own events; the same loop, hooks and result.
    const responses = await runAgentLoop({ client: server.client(), body, tools: [weatherTool], wire: 'responses' });
    assert.equal(responses.text, 'You said: hi');

    const [first, second] = server.requests;
    assert.equal(first?.wire, 'chat');
    assert.ok(second?.wire === 'responses');
    // The request as sent, and the same request in chat shape.
    assert.deepEqual(second.rawBody.input, [{ role: 'user', content: 'hi' }]);
    assert.deepEqual(second.body.messages, [{ role: 'user', content: 'hi' }]);
    // Tools go out flat, with `strict` always explicit (the Responses API reads a missing one as true).
    assert.deepEqual(second.rawBody.tools?.[0], { type: 'function', strict: false, ...weatherTool.schema.function });
  } finally {
    await server.close();
  }
}
