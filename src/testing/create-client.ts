import OpenAI from 'openai';
import type { ScriptedClientOptions } from './types';

/**
 * An openai client pointed at a scripted server with the key that selects its script.
 *
 * `maxRetries` defaults to 0: the SDK retries 408/409/429/5xx, and every retry would consume another
 * scripted turn, making error tests depend on retry timing.
 */
export function createScriptedClient(baseURL: string, apiKey: string, options: ScriptedClientOptions = {}): OpenAI {
  return new OpenAI({ maxRetries: 0, ...options, apiKey, baseURL });
}
