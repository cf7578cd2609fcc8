import type OpenAI from 'openai';
import { createScriptedClient } from './create-client';
import type { Script } from './script';
import type { RecordedRequest, ScriptedClientOptions, ScriptedSession, ScriptedTurn } from './types';

/** The public face of a session script. */
export class ScriptSession implements ScriptedSession {
  constructor(
    private readonly script: Script,
    readonly baseURL: string,
  ) {}

  get apiKey(): string {
    return this.script.apiKey;
  }

  get requests(): RecordedRequest[] {
    return this.script.requests;
  }

  client(options?: ScriptedClientOptions): OpenAI {
    return createScriptedClient(this.baseURL, this.script.apiKey, options);
  }

  pending(): number {
    return this.script.pending();
  }

  enqueue(...turns: ScriptedTurn[]): void {
    this.script.enqueue(turns);
  }
}
