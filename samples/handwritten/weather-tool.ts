import type OpenAI from 'openai';
import { runAgentLoop, type ToolDefinition } from '../../src';

type WeatherParams = { city: string };

/** A tool written by hand: the schema the model sees, a parser that validates, and the work. */
export const weatherTool: ToolDefinition<WeatherParams> = {
  schema: {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
  parseParams: (raw) => {
    const args = JSON.parse(raw || '{}') as Partial<WeatherParams>;
    return typeof args.city === 'string' && args.city
      ? { success: true, data: { city: args.city } }
      : { success: false, errorMessage: 'city: must be a non-empty string' };
  },
  execute: async ({ params, signal }) => {
    const celsius = await lookUpTemperature(params.city, signal);
    return { response: `${params.city}: ${celsius}°C` };
  },
  timeoutMs: 5_000,
};

/** Run the agent: stream the answer, show each tool call, return the final text. */
export async function askAboutWeather(client: OpenAI, question: string): Promise<string> {
  const result = await runAgentLoop({
    client,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] },
    tools: [weatherTool],
    maxRunAgentTimes: 5,
    onStreaming: ({ text }) => process.stdout.write(text),
    onToolCall: ({ call }) => console.log(`\n→ ${call.function.name}`),
    onAfterToolCall: ({ call, response, outcome }) => console.log(`← ${call.function.name} (${outcome}): ${response}`),
  });
  if (result.error) throw new Error('The run failed', { cause: result.error });
  return result.text;
}

async function lookUpTemperature(city: string, signal: AbortSignal): Promise<number> {
  signal.throwIfAborted();
  return 10 + (city.length % 15);
}
