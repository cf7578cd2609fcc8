import { Injectable } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { Param, Tool } from '../../src';

/** Where weather comes from. Abstract, so NestJS can inject any implementation under this token. */
export abstract class WeatherDataSource {
  abstract current(city: string, dayOffset?: number): Promise<WeatherReport | undefined>;
}

export type WeatherReport = { city: string; temperatureC: number; conditions: string };

const CITIES: Record<string, { base: number; conditions: string[] }> = {
  paris: { base: 14, conditions: ['light rain', 'cloudy', 'sunny'] },
  rome: { base: 21, conditions: ['sunny', 'sunny', 'clear'] },
  oslo: { base: 4, conditions: ['snow', 'overcast', 'cloudy'] },
  tokyo: { base: 17, conditions: ['humid', 'rain', 'sunny'] },
  'new york': { base: 11, conditions: ['windy', 'sunny', 'cloudy'] },
};

/** A deterministic stand-in for a weather API: same city and day, same answer. */
@Injectable()
export class FakeWeatherDataSource extends WeatherDataSource {
  async current(city: string, dayOffset = 0): Promise<WeatherReport | undefined> {
    const entry = CITIES[city.trim().toLowerCase()];
    if (!entry) return undefined;
    return {
      city: titleCase(city),
      temperatureC: entry.base + ((dayOffset * 3) % 5) - 2,
      conditions: entry.conditions[dayOffset % entry.conditions.length] ?? 'clear',
    };
  }
}

/**
 * Weather tools backed by an injected data source. `@Injectable()` only matters under NestJS
 * (constructor injection); `toolsFrom(new WeatherTools(source))` works without it.
 */
@Injectable()
export class WeatherTools {
  constructor(private readonly source: WeatherDataSource) {}

  @Tool({ name: 'get_weather', description: 'Current weather for a city: temperature in °C and conditions.' })
  async getWeather(@Param('city', { description: 'City name, e.g. "Paris"' }) city: string): Promise<WeatherReport> {
    const report = await this.source.current(city);
    // Thrown errors reach the model as "Tool error: …", so say what would work instead.
    if (!report)
      throw new Error(`Unknown city "${city}". Known cities: ${Object.keys(CITIES).map(titleCase).join(', ')}`);
    return report;
  }

  @Tool({ name: 'get_forecast', description: 'Daily forecast for the next days.' })
  async getForecast(
    @Param('city', { description: 'City name' }) city: string,
    @Param('days', { description: 'How many days (1-7), default 3', optional: true }, IsInt(), Min(1), Max(7))
    days?: number,
  ): Promise<string> {
    const lines: string[] = [];
    for (let day = 1; day <= (days ?? 3); day++) {
      const report = await this.source.current(city, day);
      if (!report) throw new Error(`Unknown city "${city}"`);
      lines.push(`day ${day}: ${report.temperatureC}°C, ${report.conditions}`);
    }
    return `${titleCase(city)} forecast\n${lines.join('\n')}`;
  }
}

function titleCase(text: string): string {
  return text.trim().replace(/\b\w/g, (c) => c.toUpperCase());
}
