import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CORE_LAYERS, importCycles, layerViolations, roomViolations, type SourceFiles } from './import-rules';

const src = resolve(__dirname, '../../src');

function readSources(): SourceFiles {
  const names = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
  return new Map(names.map((name) => [name.split('\\').join('/'), readFileSync(join(src, name), 'utf8')]));
}

describe('the import rules of src/', () => {
  const files = readSources();

  it('reads the whole tree', () => {
    expect(files.size).toBeGreaterThan(150);
    expect(files.has('text/model-text.ts')).toBe(true);
  });

  it('no core layer imports one above it, and adapters use only the entries', () => {
    expect(layerViolations(files)).toEqual([]);
  });

  it('no files import each other in a circle', () => {
    expect(importCycles(files)).toEqual([]);
  });

  it('the layer table itself has no circle', () => {
    const below = (layer: string, seen: Set<string>): boolean =>
      (CORE_LAYERS[layer] ?? []).every((next) => !seen.has(next) && below(next, new Set([...seen, next])));
    for (const layer of Object.keys(CORE_LAYERS)) expect(below(layer, new Set([layer]))).toBe(true);
  });
});

// The rules run on planted trees too, so a check that reports nothing cannot pass by reading nothing.
describe('the import rules catch a planted bad import', () => {
  const plant = (extra: Record<string, string>): SourceFiles => new Map([...readSources(), ...Object.entries(extra)]);

  it('an upward import in the core', () => {
    const files = plant({ 'llm/planted.ts': "import { runTool } from '../toolCall/run-tool';\n" });
    expect(layerViolations(files)).toEqual(['llm/planted.ts -> toolCall/run-tool.ts: llm may not import toolCall']);
  });

  it('a type-only import across the columns', () => {
    const files = plant({ 'toolCall/planted.ts': "import type { ToolOptions } from '../metadata/options';\n" });
    expect(layerViolations(files)).toEqual([
      'toolCall/planted.ts -> metadata/options.ts: toolCall may not import metadata',
    ]);
  });

  it('an adapter reaching a core internal', () => {
    const files = plant({ 'mcp/planted.ts': "export { runTool } from '../toolCall/run-tool';\n" });
    expect(layerViolations(files)).toEqual([
      'mcp/planted.ts -> toolCall/run-tool.ts: mcp imports a core internal instead of an entry',
    ]);
  });

  it('an adapter reaching into another adapter', () => {
    const files = plant({ 'bullmq/planted.ts': "const m = import('../nestjs/tool-registry');\n" });
    expect(layerViolations(files)).toEqual([
      'bullmq/planted.ts -> nestjs/tool-registry.ts: bullmq reaches into nestjs',
    ]);
  });

  it('a folder that is in no layer', () => {
    const files = plant({ 'extra/planted.ts': "import { toError } from '../utils/to-error';\n" });
    expect(layerViolations(files)).toEqual([
      'extra/planted.ts -> utils/to-error.ts: extra is in no layer: add it to CORE_LAYERS or ADAPTERS',
    ]);
  });

  it('a circle of files', () => {
    const files = plant({
      'llm/planted-a.ts': "import type { B } from './planted-b';\nexport type A = B;\n",
      'llm/planted-b.ts': "import type { A } from './planted-a';\nexport type B = A;\n",
    });
    expect(importCycles(files)).toEqual([['llm/planted-a.ts', 'llm/planted-b.ts']]);
  });
});

describe('the rooms of the run (src/agentCall/)', () => {
  const files = readSources();

  it('no feature folder imports another, state/ imports no room above it, and nothing takes the whole props', () => {
    expect(roomViolations(files)).toEqual([]);
  });

  it('at most 8 loose files beside the folders, and one runAgentLoop: the door', () => {
    const loose = [...files.keys()].filter((file) => /^agentCall\/[^/]+\.ts$/.test(file));
    expect(loose.length).toBeLessThanOrEqual(8);
    const declaring = [...files].filter(([, text]) => /\bfunction runAgentLoop\b/.test(text)).map(([file]) => file);
    expect(declaring).toEqual(['run-agent-loop.ts']);
  });
});

describe('the rooms rule catches a planted bad import', () => {
  const plant = (extra: Record<string, string>): SourceFiles => new Map([...readSources(), ...Object.entries(extra)]);

  it('a feature folder importing another', () => {
    const files = plant({
      'agentCall/budget/planted.ts': "import type { OutputOptions } from '../output/output-options';\n",
    });
    expect(roomViolations(files)).toContain(
      'agentCall/budget/planted.ts -> agentCall/output/output-options.ts: a feature imports another',
    );
  });

  it('state/ reaching up, and a part taking the whole props', () => {
    const files = plant({
      'agentCall/state/planted.ts':
        "import type { RunAgentCallProps } from '../type';\nexport type P = RunAgentCallProps;\n",
    });
    expect(roomViolations(files)).toEqual(
      expect.arrayContaining([
        'agentCall/state/planted.ts -> agentCall/type.ts: state/ imports a room above it',
        'agentCall/state/planted.ts: takes the whole RunAgentCallProps below the door',
      ]),
    );
  });
});
