import type { LLMClient } from '../../llm/client';
import type { UsageItem } from '../../llm/type';
import type { Wire } from '../../llm/wires/wire';
import type { ToolJournal } from '../../toolCall/journal';
import type { AnyToolDefinition } from '../../toolCall/type';
import type { HookErrorHandler } from '../../utils/call-hook';
import type { RunEvents } from '../events/observers';
import type { Decision, RunState } from '../state/run-state';
import type { ModelPrice } from '../state/budget-types';
import type { BudgetGate } from '../state/budget-types';
import type { AgentTracer } from '../events/event-types';
import { isAgentTool } from './agent-marker';
import type { AgentPlace } from './agent-place';
import { isUnderWay } from './running-children';

/** What a run hands the agents among its tools (its own slice of the run's options and live parts). */
export type AgentNestOptions = {
  client: LLMClient;
  /** The model the run is on now (with a `fallback` list, maybe not `body.model`). */
  model: () => string;
  wire?: Wire;
  tracer?: AgentTracer;
  journal?: ToolJournal;
  onHookError?: HookErrorHandler;
  maxAgentDepth: number;
  /** The root run's id: every call of the tree is journaled under it. */
  runId: () => string;
  /** The run's observers but its tracer, made when an agent first needs them. */
  channel: () => RunEvents;
  /** Count a nested run's usages in this run (tally, `usagePush`, budget) and hand them up. */
  takeUsages: (usages: UsageItem[]) => void;
  place: AgentPlace;
  /** The run's budget (chained to its ancestors'), when there is one. */
  budget?: BudgetGate;
  /** The run's prices, for the budgets of its agents. */
  prices?: Record<string, ModelPrice>;
  /**
   * Save the run's state with its agents under way in `children` (the run checkpoints): a child's turns checkpoint
   * as the root's. Absent when the run does not checkpoint.
   */
  checkpoint?: (running: ReadonlyMap<string, RunState>, paused: ReadonlyMap<string, RunState>) => Promise<void>;
};

/** A nested run to resume: its state and the decisions under its path (keys relative to it). */
export type ChildResume = { state: RunState; decisions: Record<string, Decision> };

/**
 * The agents room of one run, handed to its tools as `ctx.nest`: what an agent call needs of the run that makes it
 * (client, model, tracer, where events, usages and pauses go), the states of its paused agents to resume, and the
 * pauses its agents reported this turn. Nothing else in the loop knows a tool is an agent.
 *
 * @internal
 */
export class AgentNest {
  private readonly paused = new Map<string, RunState>();
  private readonly resumes = new Map<string, ChildResume>();
  /** The agents under way, by call id, each at its last checkpointed turn. */
  private readonly running = new Map<string, RunState>();
  /** Saves go out in the order the turns ended: a later state is never overwritten by an earlier one. */
  private saving: Promise<void> = Promise.resolve();
  private channelEvents?: RunEvents;

  private constructor(readonly options: AgentNestOptions) {}

  /** The room of a run whose tools include an agent; none otherwise (a run without agents pays nothing). */
  static of(tools: readonly AnyToolDefinition[], options: AgentNestOptions): AgentNest | undefined {
    return tools.some(isAgentTool) ? new AgentNest(options) : undefined;
  }

  /** The parent's observers but its tracer, made once. */
  get channel(): RunEvents {
    return (this.channelEvents ??= this.options.channel());
  }

  /** An agent call paused: its state, until the run takes it into its own (`takePause`). */
  notePause(callId: string, state: RunState): void {
    this.paused.set(callId, state);
  }

  /** Whether the agent of `callId` paused: its result holds a place and is never journaled. */
  isPaused(callId: string): boolean {
    return this.paused.has(callId);
  }

  /** The state of the agent of `callId` if it paused, once. */
  takePause(callId: string): RunState | undefined {
    const state = this.paused.get(callId);
    if (state !== undefined) this.paused.delete(callId);
    return state;
  }

  /** The agent of `callId` resumes from `resume` when its call runs again. */
  willResume(callId: string, resume: ChildResume): void {
    this.resumes.set(callId, resume);
  }

  /** Whether the call `callId` runs again to resume its agent (it was counted when it first ran). */
  resuming(callId: string): boolean {
    return this.resumes.has(callId);
  }

  /** Whether the run checkpoints, so its agents' turns are to be checkpointed with it. */
  get checkpoints(): boolean {
    return this.options.checkpoint !== undefined;
  }

  /**
   * The agent of `callId` ended a turn at `state`: the run saves its own state with it (and every other agent under
   * way) in `children`, and the agents of the turn that paused already at their pause. A pause of the agent's own
   * (pending calls, no agent of its under way) is no turn to go on from: it reaches the run as the agent's answer
   * (`notePause`) and is saved with the run's own turn. What the save throws ends the agent's run.
   */
  childTurn(callId: string, state: RunState): Promise<void> {
    const checkpoint = this.options.checkpoint;
    if (!checkpoint || !isUnderWay(state)) return Promise.resolve();
    this.running.set(callId, state);
    const running = new Map(this.running);
    const paused = new Map(this.paused);
    const saved = this.saving.then(() => checkpoint(running, paused));
    // One failed save fails its own agent, not the saves after it.
    this.saving = saved.catch(() => undefined);
    return saved;
  }

  /** The agent of `callId` answered (or paused): it is no longer under way. */
  childEnded(callId: string): void {
    this.running.delete(callId);
  }

  /** What the agent of `callId` resumes from, once. */
  takeResume(callId: string): ChildResume | undefined {
    const resume = this.resumes.get(callId);
    if (resume !== undefined) this.resumes.delete(callId);
    return resume;
  }
}
