import type { RecordedRequest, ScriptedTurn } from '../../src/testing';

const KNOWN_CITIES = ['Paris', 'Rome', 'Oslo', 'Tokyo', 'New York'];

/**
 * The embedded model of the demo: a script that calls real tools, makes one validation mistake and
 * corrects it after reading the error, then answers from the tool results it received.
 */
export function demoScript(prompt: string): ScriptedTurn[] {
  const city = KNOWN_CITIES.find((name) => prompt.toLowerCase().includes(name.toLowerCase())) ?? 'Paris';
  const title = todoTitle(prompt) ?? `Check the forecast for ${city}`;
  return [
    {
      reasoning: `The user asks about the weather in ${city} and wants a reminder. Weather first, then the to-do.`,
      text: `Let me check the weather in ${city} first.`,
      toolCalls: [{ name: 'get_weather', arguments: { city } }],
    },
    // A realistic slip: an empty title and a priority the schema does not allow.
    { toolCalls: [{ name: 'add_todo', arguments: { title: '', priority: 'urgent' } }] },
    (request) => {
      const error = lastToolMessage(request);
      return {
        reasoning: `The tool said: ${error.split('\n')[0]} I will send a title and one of the allowed priorities.`,
        toolCalls: [{ name: 'add_todo', arguments: { title, priority: 'high' } }],
      };
    },
    (request) => {
      const weather = JSON.parse(toolMessages(request)[0] ?? '{}') as {
        city?: string;
        temperatureC?: number;
        conditions?: string;
      };
      const todo = JSON.parse(lastToolMessage(request)) as { id?: string; title?: string; priority?: string };
      return {
        text:
          `It is ${weather.temperatureC}°C and ${weather.conditions} in ${weather.city}. ` +
          `I added "${todo.title}" to your to-do list (${todo.id}, ${todo.priority} priority).`,
      };
    },
  ];
}

/** "… add a to-do to pack an umbrella" → "Pack an umbrella". */
function todoTitle(prompt: string): string | undefined {
  const match = /(?:to-?do|remind(?:er)?(?: me)?)\s+(?:item\s+)?(?:to\s+)?([^.?!]+)/i.exec(prompt);
  const text = match?.[1].trim().slice(0, 120);
  return text ? text[0].toUpperCase() + text.slice(1) : undefined;
}

function toolMessages(request: RecordedRequest): string[] {
  return request.body.messages.flatMap((m) => (m.role === 'tool' && typeof m.content === 'string' ? [m.content] : []));
}

function lastToolMessage(request: RecordedRequest): string {
  return toolMessages(request).at(-1) ?? '';
}
