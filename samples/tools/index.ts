import { toolsFrom, type ToolDefinition } from '../../src';
import { CalculatorTools } from './calculator.tools';
import { ConversationTools } from './conversation.tools';
import { TodoStore, TodoTools } from './todo.tools';
import { FakeWeatherDataSource, WeatherTools } from './weather.tools';

export * from './calculator.tools';
export * from './conversation.tools';
export * from './todo.tools';
export * from './weather.tools';

/** Every sample tool, wired by hand (the NestJS app wires the same classes through DI). */
export function sampleTools(store = new TodoStore()): ToolDefinition[] {
  return toolsFrom(
    new WeatherTools(new FakeWeatherDataSource()),
    new CalculatorTools(),
    new TodoTools(store),
    new ConversationTools(),
  );
}
