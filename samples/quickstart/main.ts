import { Param, Tool, runAgentLoop, toolsFrom } from '../../src';
import { startScriptedServer } from '../../src/testing';

class WeatherTools {
  @Tool({ description: 'Current temperature in a city' })
  getWeather(@Param('city', { description: 'City name' }) city: string) {
    return { city, celsius: 12 };
  }
}

async function main() {
  // A scripted model on 127.0.0.1: it calls the tool, then answers with the tool's result.
  // For a real model, pass `client: new OpenAI()` (from 'openai') instead of `server.client()`.
  const server = await startScriptedServer({
    turns: [
      { toolCalls: [{ name: 'getWeather', arguments: { city: 'Paris' } }] },
      (request) => ({ text: `The tool answered ${JSON.stringify(request.body.messages.at(-1)?.content)}` }),
    ],
  });
  const result = await runAgentLoop({
    client: server.client(),
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
    tools: toolsFrom(new WeatherTools()),
  });
  await server.close();
  console.log(result.text);
}

void main();
