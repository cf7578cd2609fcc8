import { Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import type OpenAI from 'openai';
import { from, Observable, switchMap } from 'rxjs';
import { getErrText, runAgentLoop, type ToolDefinition } from '../../src';
import type { ChatCompletionMessageParam, Decision, PendingCall, RunState, Wire } from '../../src';
import { ToolRegistry } from '../../src/nestjs';
import type { AgentEvent, PendingCallView, RunOutcome } from './agent.events';
import { MODEL_NAME, OPENAI, WIRE } from './agent.tokens';
import { callerOf, type Caller } from './caller';
import { requestTools } from './request-tools';
import { RunStore } from './run-store';

/** Runs the agent loop over every discovered tool and reports it as a stream of events. */
@Injectable()
export class AgentService {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly moduleRef: ModuleRef,
    @Inject(OPENAI) private readonly client: OpenAI,
    @Inject(MODEL_NAME) private readonly model: string,
    private readonly runs: RunStore,
    // Optional: an app that provides no wire lets runAgentLoop pick it from the client's base URL.
    @Optional() @Inject(WIRE) private readonly wire: { wire?: Wire } = {},
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
        ...this.wire,
        // Every checkpoint lands in the store, signed, so a run that waits for a person can be resumed from there.
        stateSecret: this.runs.stateSecret,
        onCheckpoint: (state) => this.runs.save(state),
        // A sub-agent's events come with its agentPath, so a client can tell the agents' text apart.
        onStreaming: ({ text, agentPath }) => subscriber.next({ type: 'text', text, ...nested(agentPath) }),
        onReasoning: ({ text, agentPath }) => subscriber.next({ type: 'reasoning', text, ...nested(agentPath) }),
        onToolCall: ({ call, agentPath }) =>
          subscriber.next({ type: 'tool_call', id: call.id, name: call.function.name, ...nested(agentPath) }),
        onToolParam: ({ call, argsDelta, agentPath }) =>
          subscriber.next({ type: 'tool_args', id: call.id, delta: argsDelta, ...nested(agentPath) }),
        onAfterToolCall: ({ call, response, outcome, agentPath }) =>
          subscriber.next({
            type: 'tool_result',
            id: call.id,
            name: call.function.name,
            response,
            outcome,
            ...nested(agentPath),
          }),
      }).then(
        (result) => {
          if (result.interactiveResponse)
            subscriber.next({ type: 'interactive', question: result.interactiveResponse.params.childrenResponse });
          subscriber.next({
            type: 'done',
            runId: result.state.runId,
            stopReason: result.stopReason,
            inputTokens: result.inputTokens,
            outputTokens: result.outputTokens,
            ...(result.state.pending.length ? { pending: result.state.pending.map(viewOf) } : {}),
            ...(result.error !== undefined ? { error: getErrText(result.error) } : {}),
          });
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => abort.abort();
    });
  }

  /** The calls a stored run waits on; `undefined` for an unknown run. */
  async pending(runId: string): Promise<PendingCallView[] | undefined> {
    return (await this.runs.load(runId))?.pending.map(viewOf);
  }

  /**
   * Resume a stored run with a person's decisions (keyed by tool call id; a sub-agent's call by its path,
   * `[...agentPath, id].join('/')`) and run it until it stops again;
   * `undefined` for an unknown run. A call left undecided keeps the run waiting, with nothing run.
   */
  async decide(
    runId: string,
    decisions: Record<string, Decision>,
    request: IncomingMessage,
  ): Promise<RunOutcome | undefined> {
    const state = await this.runs.load(runId);
    if (!state) return undefined;
    const result = await runAgentLoop({
      client: this.client,
      body: { model: this.model, messages: [] },
      // The deciding request's tools; the caller the run acts for comes back from the stored state, which the secret
      // verifies (an unverified state's caller would not be used).
      tools: await requestTools(this.registry, this.moduleRef, request),
      maxRunAgentTimes: 12,
      stateSecret: this.runs.stateSecret,
      ...this.wire,
      onCheckpoint: (saved) => this.runs.save(saved),
      resumeFrom: state,
      decisions,
    });
    return {
      runId,
      stopReason: result.stopReason,
      text: lastText(result.state),
      pending: result.state.pending.map(viewOf),
      ...(result.error !== undefined ? { error: getErrText(result.error) } : {}),
    };
  }
}

function viewOf(pending: PendingCall): PendingCallView {
  return {
    id: pending.call.id,
    kind: pending.kind,
    name: pending.call.function.name,
    arguments: pending.call.function.arguments,
    ...nested(pending.agentPath),
  };
}

/** `{ agentPath }` for a sub-agent's event or call, nothing for the app's own run (whose path is absent or empty). */
function nested(agentPath: string[] | undefined): { agentPath?: string[] } {
  return agentPath?.length ? { agentPath } : {};
}

function lastText(state: RunState): string {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message: ChatCompletionMessageParam | undefined = state.messages[i];
    if (message?.role === 'assistant' && typeof message.content === 'string' && message.content) return message.content;
  }
  return '';
}
