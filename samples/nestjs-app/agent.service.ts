import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import type OpenAI from 'openai';
import { from, Observable, switchMap } from 'rxjs';
import { getErrText, runAgentLoop, type ToolDefinition } from '../../src';
import { ToolRegistry } from '../../src/nestjs';
import type { AgentEvent } from './agent.events';
import { MODEL_NAME, OPENAI } from './agent.tokens';
import { callerOf, type Caller } from './caller';
import { requestTools } from './request-tools';

/** Runs the agent loop over every discovered tool and reports it as a stream of events. */
@Injectable()
export class AgentService {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly moduleRef: ModuleRef,
    @Inject(OPENAI) private readonly client: OpenAI,
    @Inject(MODEL_NAME) private readonly model: string,
  ) {}

  /** A run for the request's caller, with the request's own tools (request-scoped providers get this request). */
  run(prompt: string, request: IncomingMessage): Observable<AgentEvent> {
    return from(requestTools(this.registry, this.moduleRef, request)).pipe(
      switchMap((tools) => this.runWith(prompt, tools, callerOf(request))),
    );
  }

  /** One run per subscription; unsubscribing (the HTTP client went away) aborts it. */
  private runWith(prompt: string, tools: ToolDefinition[], caller: Caller): Observable<AgentEvent> {
    return new Observable<AgentEvent>((subscriber) => {
      const abort = new AbortController();
      runAgentLoop({
        client: this.client,
        body: { model: this.model, messages: [{ role: 'user', content: prompt }] },
        tools,
        caller,
        abortSignal: abort.signal,
        maxRunAgentTimes: 12,
        onStreaming: ({ text }) => subscriber.next({ type: 'text', text }),
        onReasoning: ({ text }) => subscriber.next({ type: 'reasoning', text }),
        onToolCall: ({ call }) => subscriber.next({ type: 'tool_call', id: call.id, name: call.function.name }),
        onToolParam: ({ tool, argsDelta }) => subscriber.next({ type: 'tool_args', id: tool.id, delta: argsDelta }),
        onAfterToolCall: ({ call, response, outcome }) =>
          subscriber.next({ type: 'tool_result', id: call.id, name: call.function.name, response, outcome }),
      }).then(
        (result) => {
          if (result.interactiveResponse)
            subscriber.next({ type: 'interactive', question: result.interactiveResponse.params.childrenResponse });
          subscriber.next({
            type: 'done',
            stopReason: result.stopReason,
            inputTokens: result.inputTokens,
            outputTokens: result.outputTokens,
            ...(result.error !== undefined ? { error: getErrText(result.error) } : {}),
          });
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => abort.abort();
    });
  }
}
