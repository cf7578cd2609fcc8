import type { TimelineItem } from '../types';

/** What a decision for call `callId` of the agent at `agentPath` is keyed by (the server keys pending calls alike). */
export function callKey(agentPath: readonly string[] | undefined, callId: string): string {
  return agentPath?.length ? `${agentPath.join('/')}/${callId}` : callId;
}

/** A page's entries as a tree: the run's own at the top, each agent's run under the call that started it. */
export type AgentTree = {
  top: TimelineItem[];
  /** The entries of each agent's run, by the key of the call that started it. */
  under: Map<string, TimelineItem[]>;
};

/**
 * Group a page's entries by the agent that made them. An agent's entries whose starting call is not on this page
 * (paged away) stay at the top, where the page still shows them.
 */
export function agentTree(items: readonly TimelineItem[]): AgentTree {
  const calls = new Set(items.flatMap((item) => (item.kind === 'tool' ? [callKey(item.agentPath, item.callId)] : [])));
  const top: TimelineItem[] = [];
  const under = new Map<string, TimelineItem[]>();
  for (const item of items) {
    const path = item.kind === 'status' ? undefined : item.agentPath;
    const parent = path?.length ? path.join('/') : undefined;
    if (parent === undefined || !calls.has(parent)) {
      top.push(item);
      continue;
    }
    let list = under.get(parent);
    if (!list) under.set(parent, (list = []));
    list.push(item);
  }
  return { top, under };
}
