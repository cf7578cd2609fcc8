import { Module, type DynamicModule } from '@nestjs/common';
import type OpenAI from 'openai';
import type { RunsConnection } from '../../src/bullmq';
import { AgentRunsModule, AgentToolsModule } from '../../src/nestjs';
import { MODEL_NAME } from './agent.tokens';
import { ToolsModule } from './app.module';
import { RefundModule } from './refund.module';
import { RunsController } from './runs.controller';

/** What the queued sample needs: Redis, the model, and whether this process also runs a worker. */
export type QueuedAppOptions = {
  connection: RunsConnection;
  client: OpenAI;
  model: string;
  /** Signs resume tokens; the same in every process. */
  secret: string;
  /** Run a worker here too (an API-only process leaves it off). */
  worker: boolean;
  queueName?: string;
  prefix?: string;
};

/** The queued mode of the sample: runs live in Redis, any process serves their events, any worker advances them. */
@Module({})
export class QueuedAppModule {
  static register(options: QueuedAppOptions): DynamicModule {
    const { connection, client, model, secret, worker, queueName, prefix } = options;
    return {
      module: QueuedAppModule,
      imports: [
        AgentToolsModule.forRoot(),
        ToolsModule,
        RefundModule,
        AgentRunsModule.forRoot({
          connection,
          secret,
          ...(queueName && { queueName }),
          ...(prefix && { prefix }),
          ...(worker ? { worker: { concurrency: 4, setup: async () => ({ client }) } } : {}),
        }),
      ],
      controllers: [RunsController],
      providers: [{ provide: MODEL_NAME, useValue: model }],
    };
  }
}
