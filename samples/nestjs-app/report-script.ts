import type { RecordedRequest, ScriptedReply, ScriptedTurn } from '../../src/testing';
import type { WeatherReport } from '../tools';

/**
 * The keyless model's script for `GET /agent/report`: look the weather up, then answer with the report as JSON
 * built from the tool's result. When the tool knows no such city the model answers in prose, every time it is
 * asked again, so the run ends `output_invalid` (three answers: the first and `outputRetries`' default two).
 */
export function reportScript(city: string): ScriptedTurn[] {
  return [{ toolCalls: [{ name: 'get_weather', arguments: { city } }] }, answer, answer, answer];
}

function answer(request: RecordedRequest): ScriptedReply {
  const result = lastToolMessage(request);
  if (!result.startsWith('{')) return { text: `I could not get the weather. ${result}` };
  const weather = JSON.parse(result) as WeatherReport;
  const report = {
    city: weather.city,
    celsius: weather.temperatureC,
    conditions: weather.conditions,
    advice: adviceFor(weather),
  };
  return { text: JSON.stringify(report) };
}

function adviceFor({ temperatureC, conditions }: WeatherReport): string {
  if (/rain|snow/.test(conditions)) return 'Take an umbrella and waterproof shoes.';
  if (temperatureC < 8) return 'Wear a warm coat.';
  if (/sunny|clear/.test(conditions)) return 'Sunglasses and a light jacket will do.';
  return 'A light jacket will do.';
}

function lastToolMessage(request: RecordedRequest): string {
  const tools = request.body.messages.flatMap((m) =>
    m.role === 'tool' && typeof m.content === 'string' ? [m.content] : [],
  );
  return tools.at(-1) ?? '';
}
