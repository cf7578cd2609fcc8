import { TOOL_NAME_PATTERN } from '../internal';

const MAX_NAME_LENGTH = 64;

/**
 * Model-safe, unique tool names for remote tools: `prefix + name`, every character the pattern refuses
 * replaced by `_`, cut to 64 characters, and a `_2`, `_3`… suffix when an earlier tool took the name. Each base
 * name remembers the next suffix to try, so naming n tools that all collide costs time linear in n.
 *
 * @example new ToolNamer().name('docs_', 'search.files') // 'docs_search_files'
 *
 * @internal
 */
export class ToolNamer {
  private readonly taken = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  name(prefix: string, remoteName: string): string {
    const base = (prefix + remoteName).replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_NAME_LENGTH) || 'tool';
    let name = base;
    let n = this.nextSuffix.get(base) ?? 2;
    while (this.taken.has(name) || !TOOL_NAME_PATTERN.test(name)) {
      const suffix = `_${n++}`;
      name = base.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
    }
    this.nextSuffix.set(base, n);
    this.taken.add(name);
    return name;
  }
}
