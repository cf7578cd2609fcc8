import type { Provider } from '@nestjs/common';
import OpenAI from 'openai';
import { MODEL_NAME, OPENAI } from './agent.tokens';

/**
 * The model from the environment. `new OpenAI()` reads OPENAI_API_KEY (and OPENAI_BASE_URL, for any other
 * OpenAI-compatible server); the model name comes from OPENAI_MODEL.
 */
export const openAIProviders: Provider[] = [
  { provide: OPENAI, useFactory: () => new OpenAI() },
  { provide: MODEL_NAME, useFactory: () => process.env.OPENAI_MODEL ?? 'gpt-4o-mini' },
];
