import { McpSchemaError } from './mcp-schema-error';

/** What one remote tool's input schema may hold before `mcpTools` refuses it. */
export type RemoteSchemaCaps = {
  /** Characters of the schema as JSON. */
  readonly maxSchemaChars: number;
  /** `enum` values, all `enum`s of the schema together. */
  readonly maxEnumValues: number;
  /** Named properties (`properties` keys), all objects of the schema together. */
  readonly maxProperties: number;
  /** Patterns (`pattern` values and `patternProperties` keys) together. */
  readonly maxPatterns: number;
};

/** Nesting of the schema's JSON; Ajv compiles by recursion. */
const MAX_SCHEMA_DEPTH = 64;

/** Keywords whose subschemas apply to the same value as the schema holding them (no step into the data). */
const SAME_VALUE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'] as const;

type Node = Record<string, unknown>;

/**
 * What keeps a remote schema from being compiled, found in one pass over it (time linear in its size): over a
 * cap, nested deeper than 64, or recursive without end (a cycle of `$ref`s, `allOf`s… that never steps into the
 * data, such as `$ref: '#'` at the root, which would recurse on every call until the stack overflows).
 *
 * @internal
 */
export function remoteSchemaProblem(
  toolName: string,
  schema: object,
  caps: RemoteSchemaCaps,
): McpSchemaError | undefined {
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch {
    return new McpSchemaError(toolName, 'too_large', 'it cannot be read as JSON');
  }
  if (size > caps.maxSchemaChars) {
    return new McpSchemaError(toolName, 'too_large', `${size} characters, over the cap of ${caps.maxSchemaChars}`);
  }
  let enumValues = 0;
  let properties = 0;
  let patterns = 0;
  const nodes: Node[] = [];
  const stack: [unknown, number][] = [[schema, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) {
      return new McpSchemaError(toolName, 'over_cap', `nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    }
    const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    for (const child of children) stack.push([child, depth + 1]);
    if (Array.isArray(value)) continue;
    const node = value as Node;
    nodes.push(node);
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    if (isRecord(node.properties)) properties += Object.keys(node.properties).length;
    if (typeof node.pattern === 'string') patterns++;
    if (isRecord(node.patternProperties)) patterns += Object.keys(node.patternProperties).length;
  }
  const over = (what: string, count: number, cap: number) =>
    new McpSchemaError(toolName, 'over_cap', `${count} ${what}, over the cap of ${cap}`);
  if (enumValues > caps.maxEnumValues) return over('enum values', enumValues, caps.maxEnumValues);
  if (properties > caps.maxProperties) return over('properties', properties, caps.maxProperties);
  if (patterns > caps.maxPatterns) return over('patterns', patterns, caps.maxPatterns);
  if (hasEndlessCycle(schema as Node, nodes)) {
    return new McpSchemaError(toolName, 'recursive', 'it refers to itself without descending into the arguments');
  }
  return undefined;
}

/** Whether the graph of "applies to the same value" edges has a cycle: depth-first, each node and edge once. */
function hasEndlessCycle(root: Node, nodes: readonly Node[]): boolean {
  const state = new Map<Node, 'open' | 'done'>();
  for (const start of nodes) {
    if (state.has(start)) continue;
    const path: { node: Node; next: Node[] }[] = [{ node: start, next: sameValueSchemas(root, start) }];
    state.set(start, 'open');
    while (path.length) {
      const top = path[path.length - 1];
      const child = top.next.pop();
      if (child === undefined) {
        state.set(top.node, 'done');
        path.pop();
        continue;
      }
      const seen = state.get(child);
      if (seen === 'open') return true;
      if (seen === 'done') continue;
      state.set(child, 'open');
      path.push({ node: child, next: sameValueSchemas(root, child) });
    }
  }
  return false;
}

function sameValueSchemas(root: Node, node: Node): Node[] {
  const out: Node[] = [];
  for (const key of SAME_VALUE_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const item of list) if (isRecord(item)) out.push(item);
  }
  for (const key of SAME_VALUE_ONE) if (isRecord(node[key])) out.push(node[key]);
  if (isRecord(node.dependentSchemas))
    for (const item of Object.values(node.dependentSchemas)) if (isRecord(item)) out.push(item);
  for (const key of ['$ref', '$dynamicRef', '$recursiveRef']) {
    const ref = node[key];
    const target = typeof ref === 'string' ? resolveLocalRef(root, key === '$ref' ? ref : '#') : undefined;
    if (target) out.push(target);
  }
  return out;
}

/** The subschema a local `$ref` (`#` or a JSON pointer `#/…`) names; others are left to Ajv. */
function resolveLocalRef(root: Node, ref: string): Node | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Node)[segment];
  }
  return isRecord(current) ? current : undefined;
}

function isRecord(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
