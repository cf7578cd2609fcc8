import type { AnyToolDefinition } from '../../toolCall/type';
import { agentMark } from './agent-marker';

/**
 * The cycle an agent named `name` would close, started below the agents `chain` (root first) with `tools`: the
 * agents of the cycle in order, its first repeated at the end (`['planner', 'critic', 'planner']`), or none. Tools
 * given as lists are followed all the way down; tools given as functions are read when their agent starts, so a
 * cycle through one is found then, before that agent is entered twice.
 *
 * @internal
 */
export function findCycle(
  chain: readonly string[],
  name: string,
  tools: readonly AnyToolDefinition[],
): string[] | undefined {
  const path = [...chain, name];
  const again = chain.indexOf(name);
  if (again >= 0) return path.slice(again);
  const seen = new Set<readonly AnyToolDefinition[]>();
  const walk = (list: readonly AnyToolDefinition[]): string[] | undefined => {
    if (seen.has(list)) return undefined;
    seen.add(list);
    for (const tool of list) {
      const mark = agentMark(tool);
      if (!mark) continue;
      const at = path.indexOf(mark.name);
      if (at >= 0) return [...path.slice(at), mark.name];
      if (!mark.tools) continue;
      path.push(mark.name);
      const found = walk(mark.tools);
      if (found) return found;
      path.pop();
    }
    return undefined;
  };
  return walk(tools);
}
