import type { Provider } from '@nestjs/common';
import OpenAI from 'openai';
import { wireFromEnv } from '../demo/wire-option';
import { MODEL_NAME, OPENAI, WIRE } from './agent.tokens';

/**
 * The model from the environment. `new OpenAI()` reads OPENAI_API_KEY (and OPENAI_BASE_URL, for any other
 * OpenAI-compatible server); the model name comes from OPENAI_MODEL and the wire from OPENAI_WIRE.
 */
export const openAIProviders: Provider[] = [
  { provide: OPENAI, useFactory: () => new OpenAI() },
  { provide: MODEL_NAME, useFactory: () => process.env.OPENAI_MODEL ?? 'gpt-4o-mini' },
  { provide: WIRE, useFactory: () => wireFromEnv(process.env) },
];
