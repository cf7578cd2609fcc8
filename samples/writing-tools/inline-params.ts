import 'reflect-metadata';
import { ArrayMaxSize, ArrayMinSize, IsInt, Max, Min } from 'class-validator';
import { Ctx, Param, Tool } from '../../src';
import type { ToolExecuteContext } from '../../src';

/** Where the weather comes from; injected, so tests and apps can swap it. */
export interface WeatherSource {
  forecast(city: string, days: number, signal: AbortSignal): Promise<number[]>;
}

/** Inline parameters: each `@Param(name, …)` is one field of the arguments object the model sends. */
export class WeatherTools {
  constructor(private readonly source: WeatherSource) {}

  @Tool({ description: 'Daily high temperatures for a city' })
  async forecast(
    @Param('city', { description: 'City name', examples: ['Oslo'] }) city: string,
    @Param('days', { description: 'How many days, 1 to 7', optional: true }, IsInt(), Min(1), Max(7)) days = 1,
    @Param('unit', { enum: ['celsius', 'fahrenheit'], optional: true }) unit: 'celsius' | 'fahrenheit' = 'celsius',
    @Ctx() ctx: ToolExecuteContext,
  ) {
    // The context's signal aborts when the run is aborted or the tool's timeout passes.
    const highs = await this.source.forecast(city, days, ctx.signal);
    return highs.map((celsius) => (unit === 'celsius' ? celsius : Math.round(celsius * 1.8 + 32)));
  }

  @Tool({ name: 'compare_cities', description: 'Which of the cities is warmest today' })
  async warmest(
    // Arrays reflect as Array, so `type` names the item type.
    @Param('cities', { type: () => [String], description: 'Two to five cities' }, ArrayMinSize(2), ArrayMaxSize(5))
    cities: string[],
    @Ctx() { signal }: ToolExecuteContext,
  ) {
    const highs = await Promise.all(
      cities.map(async (city) => (await this.source.forecast(city, 1, signal))[0] ?? -Infinity),
    );
    return cities[highs.indexOf(Math.max(...highs))];
  }
}
