import assert from 'node:assert/strict';
import { runAgentLoop } from '../../src';
import { startScriptedServer } from '../../src/testing';
import { weatherTool } from '../handwritten/weather-tool';

/** The scripted model calls the tool with streamed argument fragments, then answers; the tool's text reaches it. */
export async function checkWeatherTool(): Promise<void> {
  const server = await startScriptedServer({
    turns: [
      { toolCalls: [{ name: 'get_weather', argumentChunks: ['{"ci', 'ty":"Paris"}'] }] },
      { text: 'It is 15°C in Paris.' },
    ],
  });
  try {
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
      tools: [weatherTool],
    });
    assert.equal(result.stopReason, 'completed');
    // What the model read in its second request: the tool message with the tool's text.
    assert.deepEqual(server.requests[1]?.body.messages.at(-1), {
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'Paris: 15°C',
    });
  } finally {
    await server.close();
  }
}
