import { Scope, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import type { ScriptedServer } from '../../src/testing';
import { demoScript } from '../demo/scripted-model';
import { wireFromEnv } from '../demo/wire-option';
import { MODEL_NAME, OPENAI, WIRE } from './agent.tokens';

/** The part of an HTTP request the scripted model reads. */
type PromptRequest = { query?: Record<string, unknown> };

/**
 * Keyless mode: the embedded scripted model stands in for OPENAI. The client is request-scoped: each HTTP
 * request gets a session of its own, scripted from that request's prompt, so any number of requests (concurrent
 * ones included) each play the whole demo conversation about the city they asked for. The server closes with
 * the app.
 */
export function scriptedModelProviders(server: ScriptedServer): Provider[] {
  const closer: OnApplicationShutdown = { onApplicationShutdown: () => server.close() };
  return [
    {
      provide: OPENAI,
      scope: Scope.REQUEST,
      inject: [REQUEST],
      useFactory: (request: PromptRequest) => server.session(demoScript(promptOf(request), { share: false })).client(),
    },
    { provide: MODEL_NAME, useValue: 'scripted-demo-model' },
    // The scripted server answers on both wires, so OPENAI_WIRE works keyless too.
    { provide: WIRE, useFactory: () => wireFromEnv(process.env) },
    { provide: 'SCRIPTED_MODEL_SERVER', useValue: closer },
  ];
}

function promptOf(request: PromptRequest): string {
  const prompt = request.query?.prompt;
  return typeof prompt === 'string' ? prompt : '';
}
