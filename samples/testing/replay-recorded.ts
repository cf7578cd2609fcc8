import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runAgentLoop } from '../../src';
import { recordedReply, startScriptedServer } from '../../src/testing';
import { weatherTool } from '../handwritten/weather-tool';

/** A provider's recorded stream replayed byte for byte; the history the loop sends back is what the provider reads. */
export async function checkRecordedReplay(): Promise<void> {
  const server = await startScriptedServer({
    turns: [
      recordedReply(join(__dirname, 'recorded/tool-call.sse')),
      recordedReply(join(__dirname, 'recorded/answer.sse')),
    ],
  });
  try {
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'mistral-large-latest', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
      tools: [weatherTool],
      // A Chat Completions recording: replayed on the wire it was recorded on, whatever the default picks.
      wire: 'chat',
    });
    assert.equal(result.text, 'It is 15°C in Paris.');
    // The provider's own id goes back on the call and on its tool message, and nothing Mistral would refuse.
    const [, assistant, tool] = server.requests[1]?.body.messages ?? [];
    assert.deepEqual(assistant, {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'D681PevKs', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
      ],
    });
    assert.deepEqual(tool, { role: 'tool', tool_call_id: 'D681PevKs', content: 'Paris: 15°C' });
  } finally {
    await server.close();
  }
}
