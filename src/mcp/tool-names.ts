import { TOOL_NAME_PATTERN } from '../internal';

const MAX_NAME_LENGTH = 64;

/**
 * A model-safe, unique tool name for a remote tool: `prefix + name`, every character the pattern refuses
 * replaced by `_`, cut to 64 characters, and a `_2`, `_3`… suffix when an earlier tool took the name.
 * `taken` is updated.
 *
 * @example uniqueToolName('docs_', 'search.files', new Set()) // 'docs_search_files'
 *
 * @internal
 */
export function uniqueToolName(prefix: string, remoteName: string, taken: Set<string>): string {
  const base = (prefix + remoteName).replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_NAME_LENGTH) || 'tool';
  let name = base;
  for (let n = 2; taken.has(name) || !TOOL_NAME_PATTERN.test(name); n++) {
    const suffix = `_${n}`;
    name = base.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
  }
  taken.add(name);
  return name;
}
