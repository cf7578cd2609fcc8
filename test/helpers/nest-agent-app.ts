import 'reflect-metadata';
import {
  Body,
  Controller,
  Headers,
  Inject,
  Post,
  Req,
  type INestApplication,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
import { ContextIdFactory, ModuleRef } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import OpenAI from 'openai';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { Decision, RunState } from '../../src/agentCall/state/run-state';
import type { RunAgentCallProps } from '../../src/agentCall/type';
import { AgentToolsModule, ToolRegistry } from '../../src/nestjs';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from '../../src/testing';

const SCRIPTED_BASE_URL = Symbol('SCRIPTED_BASE_URL');

/** Who an HTTP request acts for, as the test app's "authentication" reads it from headers. */
export type TestCaller = { user: string; role: string };

/** One tool call as the run reported it through `onAfterToolCall`. */
export type ReportedCall = { id: string; name: string; response: string; outcome?: string };

/** What `POST /agent/run` and `POST /agent/resume` answer. */
export type RunReport = { stopReason: string; calls: ReportedCall[]; state: RunState };

/**
 * `POST /agent/run`: one agent run per request, acting for the caller named by the `x-user` / `x-role` headers,
 * against the scripted session whose key is in `x-script`, with every tool resolved in the request's own Nest
 * context (request-scoped tool providers get this request). `POST /agent/resume` continues a paused run from its
 * state with the given decisions, acting for the state's caller unless the headers name one.
 */
@Controller('agent')
class AgentTestController {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly moduleRef: ModuleRef,
    @Inject(SCRIPTED_BASE_URL) private readonly baseURL: string,
  ) {}

  @Post('run')
  run(
    @Body() body: { prompt: string },
    @Headers() headers: Record<string, string | undefined>,
    @Req() request: object,
  ): Promise<RunReport> {
    return this.execute(headers, request, {
      body: { model: 'nest-model', messages: [{ role: 'user', content: body.prompt }] },
    });
  }

  @Post('resume')
  resume(
    @Body() body: { state: RunState; decisions: Record<string, Decision> },
    @Headers() headers: Record<string, string | undefined>,
    @Req() request: object,
  ): Promise<RunReport> {
    return this.execute(headers, request, {
      body: { model: 'nest-model', messages: [] },
      resumeFrom: body.state,
      decisions: body.decisions,
    });
  }

  private async execute(
    headers: Record<string, string | undefined>,
    request: object,
    props: Pick<RunAgentCallProps, 'body' | 'resumeFrom' | 'decisions'>,
  ): Promise<RunReport> {
    const contextId = ContextIdFactory.getByRequest(request);
    this.moduleRef.registerRequestByContextId(request, contextId);
    const calls: ReportedCall[] = [];
    const result = await runAgentLoop({
      ...props,
      client: new OpenAI({ baseURL: this.baseURL, apiKey: headers['x-script'], maxRetries: 0 }),
      tools: await this.registry.resolveTools(contextId),
      // The app's own states: signed, so a resumed run may act for the caller its state names.
      stateSecret: 'nest test state secret',
      ...(headers['x-user'] && { caller: { user: headers['x-user'], role: headers['x-role'] } }),
      onAfterToolCall: (event) => {
        const { outcome } = event as { outcome?: string };
        calls.push({ id: event.call.id, name: event.call.function.name, response: event.response, outcome });
      },
    });
    return { stopReason: result.stopReason, calls, state: result.state };
  }
}

type RunOptions = { turns: ScriptedTurn[]; caller?: TestCaller; headers?: Record<string, string> };

/** A running Nest application with the test controller, the given tool providers and a scripted model. */
export type NestAgentApp = {
  readonly app: INestApplication;
  readonly server: ScriptedServer;
  /** Run the agent over HTTP: the scripted model answers `turns`, the run acts for `caller`. */
  run(options: RunOptions): Promise<RunReport>;
  /** Resume a paused run over HTTP, in a new request (acting for the state's caller unless `caller` is given). */
  resume(options: RunOptions & { state: RunState; decisions: Record<string, Decision> }): Promise<RunReport>;
  close(): Promise<void>;
};

/** Start a real Nest HTTP application on 127.0.0.1 around `AgentToolsModule` and the given providers. */
export async function startNestAgentApp(options: {
  providers: Provider[];
  imports?: ModuleMetadata['imports'];
  configure?: (app: INestApplication) => void;
}): Promise<NestAgentApp> {
  const server = await startScriptedServer();
  const moduleRef = await Test.createTestingModule({
    imports: [AgentToolsModule.forRoot(), ...(options.imports ?? [])],
    controllers: [AgentTestController],
    providers: [{ provide: SCRIPTED_BASE_URL, useValue: server.baseURL }, ...options.providers],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  options.configure?.(app);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const post = async (path: string, { turns, caller, headers }: RunOptions, body: object): Promise<RunReport> => {
    const session = server.session(turns);
    const response = await fetch(`${url}/agent/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-script': session.apiKey,
        ...(caller && { 'x-user': caller.user, 'x-role': caller.role }),
        ...headers,
      },
      body: JSON.stringify(body),
    });
    if (response.status !== 201)
      throw new Error(`POST /agent/${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as RunReport;
  };
  return {
    app,
    server,
    run: (options) => post('run', options, { prompt: 'go' }),
    resume: ({ state, decisions, ...options }) => post('resume', options, { state, decisions }),
    async close() {
      await app.close();
      await server.close();
    },
  };
}
