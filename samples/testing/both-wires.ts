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
    // Chat Completions: what runAgentLoop speaks to any base URL but OpenAI's own.
    const chat = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      tools: [weatherTool],
    });
    assert.equal(chat.text, 'You said: hi');

    // The Responses API, streamed: the same script, as OpenAI's own events.
    const stream = await server.client().responses.create({
      model: 'm',
      input: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    assert.equal(text, 'You said: hi');

    const [first, second] = server.requests;
    assert.equal(first.wire, 'chat');
    assert.ok(second.wire === 'responses');
    // The request as sent, and the same request in chat shape.
    assert.deepEqual(second.rawBody.input, [{ role: 'user', content: 'hi' }]);
    assert.deepEqual(second.body.messages, [{ role: 'user', content: 'hi' }]);
  } finally {
    await server.close();
  }
}
