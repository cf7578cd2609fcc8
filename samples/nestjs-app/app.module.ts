import { Module, type DynamicModule, type Provider } from '@nestjs/common';
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
import { AdminTools } from './admin.tools';
import { AgentController } from './agent.controller';
import { AgentService } from './agent.service';
import { LocaleTools } from './locale.tools';
import { openAIProviders } from './openai.providers';
import { ReportController } from './report.controller';
import { ReportService } from './report.service';
import { RunStore } from './run-store';
import { SupportModule } from './support.module';

/** The sample tools as ordinary providers: Nest injects their dependencies, agentcall discovers them. */
@Module({
  providers: [
    { provide: WeatherDataSource, useClass: FakeWeatherDataSource },
    WeatherTools,
    CalculatorTools,
    TodoStore,
    TodoTools,
    ConversationTools,
    AdminTools,
    LocaleTools,
  ],
})
export class ToolsModule {}

/**
 * The sample application. `model` provides `OPENAI` (the client) and `MODEL_NAME`: from the environment by
 * default; `main.ts` passes the embedded scripted model when no key is set, and tests their own server.
 */
@Module({})
export class AppModule {
  static register(model: Provider[] = openAIProviders): DynamicModule {
    return {
      module: AppModule,
      imports: [AgentToolsModule.forRoot(), ToolsModule, SupportModule],
      controllers: [AgentController, ReportController],
      providers: [...model, AgentService, ReportService, RunStore],
    };
  }
}
