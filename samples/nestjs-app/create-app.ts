import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startScriptedServer } from '../../src/testing';
import { AppModule } from './app.module';
import { openAIProviders } from './openai.providers';
import { scriptedModelProviders } from './scripted-model.providers';

/** Options of {@link createApp}. */
export type CreateAppOptions = {
  /** Answer from the embedded scripted model instead of the OpenAI-compatible API in the environment. */
  keyless: boolean;
  logger?: false;
};

/** The sample app, talking to the API in the environment or, keyless, to the embedded scripted model. */
export async function createApp({ keyless, logger }: CreateAppOptions): Promise<INestApplication> {
  const model = keyless ? scriptedModelProviders(await startScriptedServer()) : openAIProviders;
  return NestFactory.create(AppModule.register(model), logger === false ? { logger } : {});
}
