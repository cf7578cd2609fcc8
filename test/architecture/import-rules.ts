import { posix } from 'node:path';
import ts from 'typescript';

/**
 * The layers of the core and what each may import, bottom to top. Two columns share the foundation: the
 * request column (llm → toolCall → agentCall) and the decorator column (metadata → decorators → definitions);
 * definitions build the `ToolDefinition`s the toolCall layer types, so they sit above it too. Nothing in the
 * request column imports the decorator column: `runTool` and `runAgentLoop` cannot tell a hand-written tool from
 * a decorated one.
 */
export const CORE_LAYERS: Readonly<Record<string, readonly string[]>> = {
  constants: [],
  text: ['constants'],
  errors: ['constants', 'text'],
  utils: ['constants', 'text', 'errors'],
  llm: ['constants', 'text', 'errors', 'utils'],
  toolCall: ['constants', 'text', 'errors', 'utils', 'llm'],
  agentCall: ['constants', 'text', 'errors', 'utils', 'llm', 'toolCall'],
  metadata: ['constants', 'text', 'errors', 'utils'],
  decorators: ['constants', 'text', 'errors', 'utils', 'metadata'],
  // `@Agent` classes become the agents room's tools (`agentCall/agents/`).
  definitions: ['constants', 'text', 'errors', 'utils', 'metadata', 'decorators', 'llm', 'toolCall', 'agentCall'],
  // Where the two columns meet: the public `runAgentLoop` reads a DTO class (`output`) with the decorator column and
  // hands the core loop a Standard Schema, so the request column itself still never imports it.
  output: [
    'constants',
    'text',
    'errors',
    'utils',
    'llm',
    'toolCall',
    'agentCall',
    'metadata',
    'decorators',
    'definitions',
  ],
  // The door (`src/run-agent-loop.ts`): the one public `runAgentLoop`, above everything the run is built from.
  door: [
    'constants',
    'text',
    'errors',
    'utils',
    'llm',
    'toolCall',
    'agentCall',
    'metadata',
    'decorators',
    'definitions',
    'output',
  ],
};

/** The adapters: each reaches the core only through an entry, and other adapters only through theirs. */
export const ADAPTERS: readonly string[] = ['nestjs', 'testing', 'bullmq', 'mcp', 'devtools'];

/** The core's entries: `agentcall` (public) and `agentcall/internal` (what adapters share, not for users). */
export const CORE_ENTRIES: readonly string[] = ['index.ts', 'internal.ts'];

/** Source files as paths relative to `src/` (posix separators) and their text. */
export type SourceFiles = ReadonlyMap<string, string>;

/** The files a source file imports or re-exports (type-only imports and dynamic `import()` included). */
export function importsOf(files: SourceFiles, file: string): string[] {
  const { importedFiles } = ts.preProcessFile(files.get(file) ?? '', true, true);
  const targets = importedFiles
    .map(({ fileName }) => fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolveSpecifier(files, posix.join(posix.dirname(file), spec)))
    .filter((target): target is string => target !== undefined);
  return [...new Set(targets)];
}

function resolveSpecifier(files: SourceFiles, base: string): string | undefined {
  return [`${base}.ts`, posix.join(base, 'index.ts'), base].find((candidate) => files.has(candidate));
}

/** The door: the one public `runAgentLoop`, a file of its own at the top of `src/`. */
export const DOOR = 'run-agent-loop.ts';

/** The layer a file belongs to: its top folder under `src/`, `constants`, `door`, or `entry` for the core's entries. */
export function layerOf(file: string): string {
  if (CORE_ENTRIES.includes(file)) return 'entry';
  if (file === 'constants.ts') return 'constants';
  if (file === DOOR) return 'door';
  return file.split('/')[0];
}

/** Every import that breaks the layer rules, as `from -> to: why`. */
export function layerViolations(files: SourceFiles): string[] {
  const problems: string[] = [];
  for (const file of files.keys()) {
    const from = layerOf(file);
    for (const target of importsOf(files, file)) {
      const to = layerOf(target);
      const why = whyRefused(from, to, target);
      if (why) problems.push(`${file} -> ${target}: ${why}`);
    }
  }
  return problems;
}

function whyRefused(from: string, to: string, target: string): string | undefined {
  if (from === to) return undefined;
  if (from === 'entry') return ADAPTERS.includes(to) ? 'the core entry imports an adapter' : undefined;
  if (ADAPTERS.includes(from)) {
    if (to === 'entry') return undefined;
    if (ADAPTERS.includes(to)) return target === `${to}/index.ts` ? undefined : `${from} reaches into ${to}`;
    return `${from} imports a core internal instead of an entry`;
  }
  const allowed = CORE_LAYERS[from];
  if (!allowed) return `${from} is in no layer: add it to CORE_LAYERS or ADAPTERS`;
  if (allowed.includes(to)) return undefined;
  return to in CORE_LAYERS ? `${from} may not import ${to}` : `the core imports ${to}`;
}

/** Every import cycle between files, each as its files in order (Tarjan's strongly connected components). */
export function importCycles(files: SourceFiles): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const edges = new Map([...files.keys()].map((file) => [file, importsOf(files, file)]));

  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)?.includes(file)) cycles.push(component.sort());
  };

  for (const file of files.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The rooms of the run (`src/agentCall/`): the bottom, the channel, the turn, and one folder per feature. */
export const RUN_ROOMS = {
  state: 'agentCall/state/',
  events: 'agentCall/events/',
  turn: 'agentCall/turn/',
  features: ['context', 'budget', 'fallback', 'tool-search', 'output', 'agents'].map((name) => `agentCall/${name}/`),
} as const;

/** The file that declares `RunAgentCallProps`: the door's contract, read by the door and the loop that serves it. */
export const PROPS_FILE = 'agentCall/type.ts';

const featureOf = (file: string): string | undefined => RUN_ROOMS.features.find((folder) => file.startsWith(folder));

/**
 * Every import that breaks the rooms of the run, as `from -> to: why`: a feature folder importing another,
 * `state/` importing any other room of the run, and a file below the door importing `RunAgentCallProps` (each
 * part is built from its own slice of the options).
 */
export function roomViolations(files: SourceFiles): string[] {
  const problems: string[] = [];
  for (const file of files.keys()) {
    if (!file.startsWith('agentCall/')) continue;
    const feature = featureOf(file);
    for (const target of importsOf(files, file)) {
      if (!target.startsWith('agentCall/')) continue;
      const other = featureOf(target);
      if (feature && other && other !== feature) problems.push(`${file} -> ${target}: a feature imports another`);
      if (file.startsWith(RUN_ROOMS.state) && !target.startsWith(RUN_ROOMS.state))
        problems.push(`${file} -> ${target}: state/ imports a room above it`);
    }
    if (importsName(files.get(file) ?? '', 'RunAgentCallProps') && file !== PROPS_FILE)
      problems.push(`${file}: takes the whole RunAgentCallProps below the door`);
  }
  return problems.sort();
}

function importsName(text: string, name: string): boolean {
  const imports = text.match(/\bimport\s+(?:type\s+)?\{[^}]*\}\s*from/g) ?? [];
  return imports.some((clause) => new RegExp(`\\b${name}\\b`).test(clause));
}
