import 'reflect-metadata';
import { runTool, ToolDefinitionError, toolsFrom, type ToolDefinition } from '../../src';
import { FlightTools } from './dto-params';
import { WeatherTools, type WeatherSource } from './inline-params';
import { SupportTools } from './results';

/** A weather source with fixed numbers, for the samples and their tests. */
export const fixedWeather: WeatherSource = {
  forecast: async (city, days) => Array.from({ length: days }, (_, day) => 10 + ((city.length + day) % 15)),
};

/** Instances in, definitions out; each class is analysed once, each instance bound separately. */
export function buildTools(): ToolDefinition[] {
  return toolsFrom(new WeatherTools(fixedWeather), new FlightTools(), new SupportTools());
}

/** The list form takes defaults for tools that do not set their own. */
export function buildStrictTools(): ToolDefinition[] {
  return toolsFrom([new WeatherTools(fixedWeather), new SupportTools()], { strict: true, timeoutMs: 10_000 });
}

/** Definition mistakes surface when the tools are built, all of them at once. */
export function describeDefinitionProblems(build: () => unknown): string[] {
  try {
    build();
    return [];
  } catch (error) {
    if (!ToolDefinitionError.isInstance(error)) throw error;
    return error.problems.map((p) => `${p.className}.${p.methodName ?? ''}: ${p.message}`);
  }
}

/** One call, the way runAgentLoop makes it: parse, validate, execute; every failure becomes text for the model. */
export async function callTool(tools: ToolDefinition[], name: string, args: string): Promise<string> {
  const call = { id: 'call_1', type: 'function' as const, function: { name, arguments: args } };
  const result = await runTool({ call, messages: [], tools });
  return result.response;
}
