import { DEFAULT_MAX_AGENT_DEPTH } from '../../constants';
import { getErrText } from '../../text/error-text';
import { toolErrorText } from '../../text/model-text';
import type { ToolDefinition, ToolExecuteContext, ToolExecuteResult } from '../../toolCall/type';
import type { ResponseEvents } from '../../llm/response/response-types';
import type { ObserverOptions } from '../events/event-types';
import { RunEvents } from '../events/observers';
import type { RunObserver } from '../events/run-events';
import type { ModelPrice, RunBudget } from '../state/budget-types';
import type { OutputFormat } from '../state/output-types';
import type { RunAgentResponse } from '../state/run-result';
import type { RunState } from '../state/run-state';
import type { StateOptions } from '../state/state-options';
import type { ModelRequestOptions, ToolCallOptions, TurnLimits } from '../turn/turn-options';
import { markAgent } from './agent-marker';
import { AgentNest } from './agent-nest';
import { ROOT_PLACE, type NestedRun } from './agent-place';
import type { AgentToolSpec } from './agent-spec';
import { findCycle } from './find-cycle';
import { forwardEvents } from './forward-events';
import type { NestingOptions } from './nesting-options';

/** What an agent's run is started with: the options an agent call sets of a run of its own. @internal */
export type ChildRunOptions = Pick<ModelRequestOptions, 'body' | 'tools' | 'client' | 'wire'> &
  Pick<TurnLimits, 'abortSignal' | 'maxRunAgentTimes'> &
  Pick<ToolCallOptions, 'journal'> &
  Pick<StateOptions, 'caller' | 'runId' | 'resumeFrom' | 'decisions' | 'onCheckpoint'> &
  Pick<ObserverOptions, 'tracer'> &
  Pick<ResponseEvents, 'onHookError'> &
  NestingOptions & { budget?: RunBudget; prices?: Record<string, ModelPrice> };

/**
 * How an agent's run is run: the core loop, handed in from above the run's rooms (the loop runs the agents it
 * holds, so this room cannot import it). @internal
 */
export type RunChild = (
  options: ChildRunOptions,
  observers: readonly RunObserver[],
  output: OutputFormat | undefined,
  nested: NestedRun,
) => Promise<RunAgentResponse>;

/** The tool message of an agent call whose agent waits for a person, until its agent resumes and answers. */
export const AWAITING_AGENT_RESPONSE = 'Waiting for the user to decide calls of this agent';

/**
 * The tool an agent is to its parent: one call runs the agent as a full run of its own (its instructions and the
 * input as its history, its own tools only, the parent's client, model, wire, caller, signal and tracer unless it
 * names its own) and answers with the agent's text, or its `output` as JSON. Its pauses, events, usages and spend
 * reach the parent through the parent's agents room (`ctx.nest`). `run` runs the agent's run (the core loop).
 *
 * @internal
 */
export function agentTool<I>(spec: AgentToolSpec<I>, run: RunChild): ToolDefinition<I> {
  const tool: ToolDefinition<I> = {
    schema: {
      type: 'function',
      function: { name: spec.name, description: spec.description, parameters: spec.parameters },
    },
    parseParams: spec.parseParams,
    execute: (ctx) => runAgent(spec, ctx, run),
    ...(spec.needsApproval !== undefined && { needsApproval: spec.needsApproval }),
    ...(spec.deferred !== undefined && { deferred: spec.deferred }),
  };
  return markAgent(tool, { name: spec.name, ...(Array.isArray(spec.tools) && { tools: spec.tools }) });
}

async function runAgent<I>(
  spec: AgentToolSpec<I>,
  ctx: ToolExecuteContext<I>,
  run: RunChild,
): Promise<ToolExecuteResult> {
  const nest = ctx.nest instanceof AgentNest ? ctx.nest : undefined;
  const place = nest?.options.place ?? ROOT_PLACE;
  const path = [...place.path, ctx.call.id];
  const maxDepth = nest?.options.maxAgentDepth ?? DEFAULT_MAX_AGENT_DEPTH;
  if (path.length > maxDepth) {
    return {
      response: toolErrorText(
        `agent ${spec.name} was not run: it would nest ${path.length} agents deep, past maxAgentDepth (${maxDepth})`,
      ),
    };
  }
  const tools = typeof spec.tools === 'function' ? await spec.tools(ctx) : spec.tools;
  const cycle = findCycle(place.agents, spec.name, tools);
  if (cycle)
    return {
      response: toolErrorText(
        `agent ${spec.name} was not run: agents call each other in a cycle (${cycle.join(' → ')})`,
      ),
    };
  const resume = nest?.takeResume(ctx.call.id);
  const input = ctx.params;
  const instructions =
    typeof spec.instructions === 'function' ? await spec.instructions(input, ctx) : spec.instructions;
  const props: ChildRunOptions = {
    // Without a client of its own or the parent's, the child resolves one from the environment as any run does.
    ...((spec.client ?? nest?.options.client) && { client: spec.client ?? nest?.options.client }),
    body: {
      model: spec.model ?? nest?.options.model() ?? '',
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: spec.userMessage(input) },
      ],
    },
    tools,
    abortSignal: ctx.signal,
    maxAgentDepth: maxDepth,
    ...('caller' in ctx && { caller: ctx.caller }),
    ...(nest && { runId: nest.options.runId() }),
    ...((spec.wire ?? (spec.client ? undefined : nest?.options.wire)) !== undefined && {
      wire: spec.wire ?? nest?.options.wire,
    }),
    ...(nest?.options.tracer && { tracer: nest.options.tracer }),
    ...(nest?.options.journal && { journal: nest.options.journal }),
    ...(nest?.options.onHookError && { onHookError: nest.options.onHookError }),
    ...(spec.budget !== undefined && { budget: spec.budget }),
    ...(nest?.options.prices && { prices: nest.options.prices }),
    ...(spec.maxRunAgentTimes !== undefined && { maxRunAgentTimes: spec.maxRunAgentTimes }),
    ...(resume && { resumeFrom: resume.state, decisions: resume.decisions }),
    // The child's turns checkpoint as the root's: a resume without decisions continues it where it stopped. Once the
    // call is aborted its parent has answered it already, so the turn a stopped child ends is not saved over that.
    ...(nest?.checkpoints && {
      onCheckpoint: (state: RunState) => (ctx.signal?.aborted ? undefined : nest.childTurn(ctx.call.id, state)),
    }),
  };
  const channel = nest?.channel ?? new RunEvents([], undefined);
  const observer = forwardEvents(channel, path, (usages) => nest?.options.takeUsages(usages));
  const result = await run(props, [observer], spec.output, {
    path,
    agents: [...place.agents, spec.name],
    spanName: `invoke_agent ${spec.name}`,
    ...(nest?.options.budget && { budget: nest.options.budget }),
  }).finally(() => nest?.childEnded(ctx.call.id));
  return answerOf(spec.name, result, ctx.call.id, nest);
}

/** What the parent's model reads of a finished (or paused) agent. */
function answerOf(
  name: string,
  result: RunAgentResponse,
  callId: string,
  nest: AgentNest | undefined,
): ToolExecuteResult {
  if (result.stopReason === 'interactive' && nest) {
    nest.notePause(callId, result.state);
    return { response: AWAITING_AGENT_RESPONSE };
  }
  if (result.stopReason === 'error') {
    return { response: toolErrorText(`agent ${name} failed: ${getErrText(result.error)}`) };
  }
  if (result.stopReason === 'completed' && result.output !== undefined)
    return { response: JSON.stringify(result.output) };
  return { response: result.text };
}
