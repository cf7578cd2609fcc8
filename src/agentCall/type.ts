import type { ResponseEvents } from '../llm/request';
import type { AgentOptions } from './agents/agent-options';
import type { BudgetOptions } from './budget/budget-options';
import type { ContextOptions } from './context/context-options';
import type { ObserverOptions } from './events/event-types';
import type { FallbackOptions } from './fallback/fallback-options';
import type { OutputOptions } from './output/output-options';
import type { StateOptions } from './state/state-options';
import type { ModelRequestOptions, ToolCallOptions, TurnLimits } from './turn/turn-options';

export type { CompressionOptions } from './context/context-options';
export type {
  AfterToolCallEvent,
  AgentSpan,
  AgentTracer,
  CompressContextEvent,
  RequestEndEvent,
  ToolCompressEvent,
  ToolProgressEvent,
} from './events/event-types';
export type {
  AgentStopReason,
  ChildrenInteractiveParams,
  RunAgentResponse,
  ToolCallChildrenInteractive,
} from './state/run-result';

/**
 * Every option of a run but its typed final answer, room by room: what the door hands the core loop, which gives
 * each part its own slice.
 */
export type RunSlices = ResponseEvents &
  ModelRequestOptions &
  TurnLimits &
  ToolCallOptions &
  StateOptions &
  ObserverOptions &
  ContextOptions &
  BudgetOptions &
  FallbackOptions &
  AgentOptions;

/**
 * Arguments of `runAgentLoop`. `T` is the type of the typed final answer (`output`); without `output` it is
 * `unknown`.
 */
export type RunAgentCallProps<T = unknown> = RunSlices & OutputOptions<T>;
