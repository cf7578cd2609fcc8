import type { UsageItem } from '../../llm/type';
import type { RunEvents } from '../events/observers';
import type { RunEventName, RunObserver } from '../events/run-events';

/** The events of a nested run its parent's observers hear (its run-level ones stay its own). */
const FORWARDED = [
  'requestEnd',
  'text',
  'reasoning',
  'toolCall',
  'toolParam',
  'toolStart',
  'toolEnd',
  'toolSettled',
] as const satisfies readonly RunEventName[];

/**
 * The observer that hands a nested run's events up: each reaches `channel` (the parent's observers but its tracer:
 * the nested run has spans of its own) with `agentPath` (kept when a deeper run set it already), and its usages go to
 * `takeUsages`, which counts them in the parent (tally, `usagePush`, budget) and hands them further up.
 *
 * @internal
 */
export function forwardEvents(
  channel: RunEvents,
  agentPath: readonly string[],
  takeUsages: (usages: UsageItem[]) => void,
): RunObserver {
  const observer: RunObserver = {
    name: 'agent',
    usage: (usages) =>
      takeUsages(usages.map((usage) => (usage.agentPath ? usage : { ...usage, agentPath: [...agentPath] }))),
  };
  for (const name of FORWARDED) {
    if (!channel.has(name)) continue;
    (observer as Record<string, unknown>)[name] = (event: { agentPath?: string[] }) =>
      channel.emit(name, { ...event, agentPath: event.agentPath ?? [...agentPath] } as never);
  }
  return observer;
}
