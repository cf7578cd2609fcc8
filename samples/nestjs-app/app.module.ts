import { Module, type DynamicModule } from '@nestjs/common';
import type OpenAI from 'openai';
import { AgentToolsModule } from '../../src/nestjs';
import {
  CalculatorTools,
  ConversationTools,
  FakeWeatherDataSource,
  TodoStore,
  TodoTools,
  WeatherDataSource,
  WeatherTools,
} from '../tools';
import { AgentController } from './agent.controller';
import { AgentService } from './agent.service';
import { MODEL_NAME, OPENAI_CLIENT } from './agent.tokens';

/** The sample tools as ordinary providers: Nest injects their dependencies, agentcall discovers them. */
@Module({
  providers: [
    { provide: WeatherDataSource, useClass: FakeWeatherDataSource },
    WeatherTools,
    CalculatorTools,
    TodoStore,
    TodoTools,
    ConversationTools,
  ],
})
export class ToolsModule {}

/** The sample application; `register` takes the model client so tests and `main.ts` choose the endpoint. */
@Module({})
export class AppModule {
  static register({ client, model }: { client: OpenAI; model: string }): DynamicModule {
    return {
      module: AppModule,
      imports: [AgentToolsModule.forRoot(), ToolsModule],
      controllers: [AgentController],
      providers: [{ provide: OPENAI_CLIENT, useValue: client }, { provide: MODEL_NAME, useValue: model }, AgentService],
    };
  }
}
