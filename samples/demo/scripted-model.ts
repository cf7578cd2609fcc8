import type { RecordedRequest, ScriptedReply, ScriptedTurn } from '../../src/testing';

const KNOWN_CITIES = ['Paris', 'Rome', 'Oslo', 'Tokyo', 'New York'];

/**
 * The embedded model of the demo: a script that calls real tools, makes one validation mistake and
 * corrects it after reading the error, shares the new to-do twice (each share needs the user's approval),
 * then answers from the tool results it received, refusals included.
 */
export function demoScript(prompt: string, { share = true }: { share?: boolean } = {}): ScriptedTurn[] {
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
    ...(share ? [shareTurn] : []),
    (request) => {
      const weather = JSON.parse(resultOf(request, 'get_weather')) as {
        city?: string;
        temperatureC?: number;
        conditions?: string;
      };
      const todo = JSON.parse(resultOf(request, 'add_todo')) as { id?: string; title?: string; priority?: string };
      return {
        text:
          `It is ${weather.temperatureC}°C and ${weather.conditions} in ${weather.city}. ` +
          `I added "${todo.title}" to your to-do list (${todo.id}, ${todo.priority} priority).` +
          (share ? ` ${sharesSummary(toolMessages(request).slice(-2))}` : ''),
      };
    },
  ];
}

/** The model shares the new to-do twice; each share waits for the user's approval. */
function shareTurn(request: RecordedRequest): ScriptedReply {
  const todo = JSON.parse(lastToolMessage(request)) as { id?: string };
  return {
    text: 'I will also share it with Alex and with the team.',
    toolCalls: [
      { name: 'share_todo', arguments: { id: todo.id, email: 'alex@example.com' } },
      { name: 'share_todo', arguments: { id: todo.id, email: 'team@example.com' } },
    ],
  };
}

/** What became of the two shares: sent, or refused with the user's reason. */
function sharesSummary(results: string[]): string {
  const refused = results.find((text) => text.startsWith('Tool call rejected by the user'));
  const reason = refused?.split(': ').slice(1).join(': ');
  const sent = results.filter((text) => text.startsWith('Shared')).length;
  return `${sent} of 2 shares sent` + (refused ? `; you refused one${reason ? ` ("${reason}")` : ''}.` : '.');
}

/** The last tool message answering a call of `name`. */
function resultOf(request: RecordedRequest, name: string): string {
  const ids = new Set(
    request.body.messages.flatMap((m) =>
      m.role === 'assistant' && m.tool_calls
        ? m.tool_calls.flatMap((c) => (c.type === 'function' && c.function.name === name ? [c.id] : []))
        : [],
    ),
  );
  const answers = request.body.messages.flatMap((m) =>
    m.role === 'tool' && ids.has(m.tool_call_id) && typeof m.content === 'string' ? [m.content] : [],
  );
  return answers.at(-1) ?? '{}';
}

/** "… add a to-do to pack an umbrella" → "Pack an umbrella". */
function todoTitle(prompt: string): string | undefined {
  const match = /(?:to-?do|remind(?:er)?(?: me)?)\s+(?:item\s+)?(?:to\s+)?([^.?!]+)/i.exec(prompt);
  const text = match?.[1]?.trim().slice(0, 120);
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : undefined;
}

function toolMessages(request: RecordedRequest): string[] {
  return request.body.messages.flatMap((m) => (m.role === 'tool' && typeof m.content === 'string' ? [m.content] : []));
}

function lastToolMessage(request: RecordedRequest): string {
  return toolMessages(request).at(-1) ?? '';
}
