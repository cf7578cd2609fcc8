import { Scope, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import type { ScriptedServer, ScriptedTurn } from '../../src/testing';
import { demoScript } from '../demo/scripted-model';
import { wireFromEnv } from '../demo/wire-option';
import { MODEL_NAME, OPENAI, WIRE } from './agent.tokens';
import { reportScript } from './report-script';

/** The part of an HTTP request the scripted model reads. */
type PromptRequest = { path?: string; query?: Record<string, unknown> };

/**
 * Keyless mode: the embedded scripted model stands in for OPENAI. The client is request-scoped: each HTTP
 * request gets a session of its own, scripted from that request's prompt, so any number of requests (concurrent
 * ones included) each play the whole demo conversation about the city they asked for. The server closes with
 * the app.
 * `GET /agent/report` gets a script of its own: look the city's weather up, then answer with the report as JSON.
 */
export function scriptedModelProviders(server: ScriptedServer): Provider[] {
  const closer: OnApplicationShutdown = { onApplicationShutdown: () => server.close() };
  return [
    {
      provide: OPENAI,
      scope: Scope.REQUEST,
      inject: [REQUEST],
      useFactory: (request: PromptRequest) => server.session(scriptOf(request)).client(),
    },
    { provide: MODEL_NAME, useValue: 'scripted-demo-model' },
    // The scripted server answers on both wires, so OPENAI_WIRE works keyless too.
    { provide: WIRE, useFactory: () => wireFromEnv(process.env) },
    { provide: 'SCRIPTED_MODEL_SERVER', useValue: closer },
  ];
}

function scriptOf(request: PromptRequest): ScriptedTurn[] {
  if (request.path === '/agent/report') return reportScript(queryOf(request, 'city'));
  return demoScript(queryOf(request, 'prompt'), { share: false });
}

function queryOf(request: PromptRequest, name: string): string {
  const value = request.query?.[name];
  return typeof value === 'string' ? value : '';
}
