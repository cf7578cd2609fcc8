import { Injectable } from '@nestjs/common';
import { Agent } from '../../src';
import { WeatherTools } from '../tools';

/** The first sub-agent: looks things up with the app's weather tools, the instances Nest injected. */
@Agent({
  name: 'research',
  description: 'Looks up the weather and the forecast for a city',
  instructions: 'You look up what you are asked with your weather tools and report what you found.',
  tools: [WeatherTools],
})
@Injectable()
export class ResearchAgent {}
