import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import ts from 'typescript';
import * as openai from 'openai';
import { minify } from 'uglify-js';
import { AgentcallError } from '../../src/errors/agentcall.error';
import { EmptyModelResponseError } from '../../src/errors/empty-model-response.error';
import { ToolDefinitionError } from '../../src/errors/tool-definition.error';

const ERRORS_DIR = join(__dirname, '../../src/errors');

type Exports = Record<string, unknown>;

/** Every `src/errors/*.error.ts` compiled to CommonJS and minified with classes renamed, as a bundler would ship it. */
function minifiedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of readdirSync(ERRORS_DIR).filter((name) => name.endsWith('.error.ts'))) {
    const { outputText } = ts.transpileModule(readFileSync(join(ERRORS_DIR, file), 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        useDefineForClassFields: false,
        experimentalDecorators: true,
      },
    });
    const result = minify(outputText, { toplevel: true, mangle: { toplevel: true } });
    if (result.error) throw result.error;
    files.set(`./${file.replace(/\.ts$/, '')}`, result.code);
  }
  return files;
}

/** Load the minified files as a second copy of the package, resolving their relative imports among themselves. */
function loadCopy(files: Map<string, string>): Map<string, Exports> {
  const loaded = new Map<string, Exports>();
  const load = (specifier: string): Exports => {
    const cached = loaded.get(specifier);
    if (cached) return cached;
    // A package an error extends (the openai SDK's APIConnectionError) is the one installed, as in a bundle.
    if (specifier === 'openai') return openai;
    const code = files.get(specifier);
    if (code === undefined) throw new Error(`not an error module: ${specifier}`);
    const module = { exports: {} as Exports };
    loaded.set(specifier, module.exports);
    const wrapper = runInThisContext(`(function (require, module, exports) {\n${code}\n})`, { filename: specifier });
    wrapper(load, module, module.exports);
    return module.exports;
  };
  for (const specifier of files.keys()) load(specifier);
  return loaded;
}

describe('error names after minification', () => {
  const files = minifiedFiles();
  const copy = loadCopy(files);
  const minified = (name: string) => {
    for (const exports of copy.values()) if (name in exports) return exports[name] as typeof ToolDefinitionError;
    throw new Error(`${name} is not exported`);
  };

  it('the minifier really renames the classes (otherwise this test proves nothing)', () => {
    const code = files.get('./tool-definition.error')!;
    expect(code).not.toMatch(/class ToolDefinitionError\b/);
    expect(code).toMatch(/class \w{1,2} extends/);
  });

  it('every exported error class keeps its exported name as its static name', () => {
    const classes = [...copy.values()].flatMap((exports) =>
      Object.entries(exports).filter(([, value]) => typeof value === 'function'),
    );
    expect(classes.length).toBe(files.size);
    for (const [exported, errorClass] of classes) {
      expect({ exported, name: (errorClass as { name: string }).name }).toEqual({ exported, name: exported });
    }
  });

  it('instances keep their names, and isInstance works between the minified copy and this one', () => {
    const MinifiedToolDefinitionError = minified('ToolDefinitionError');
    const fromMinified = new MinifiedToolDefinitionError([{ className: 'A', message: 'broken' }]);
    expect(fromMinified.name).toBe('ToolDefinitionError');
    expect(String(fromMinified)).toMatch(/^ToolDefinitionError: Invalid tool definitions/);
    expect(fromMinified instanceof ToolDefinitionError).toBe(false);
    expect(ToolDefinitionError.isInstance(fromMinified)).toBe(true);
    expect(AgentcallError.isInstance(fromMinified)).toBe(true);
    expect(EmptyModelResponseError.isInstance(fromMinified)).toBe(false);

    expect(MinifiedToolDefinitionError.isInstance(new ToolDefinitionError([]))).toBe(true);
    expect(minified('AgentcallError').isInstance(new EmptyModelResponseError())).toBe(true);
    expect(minified('EmptyModelResponseError').isInstance(new ToolDefinitionError([]))).toBe(false);
  });
});

describe('error classes anywhere in src/', () => {
  /** Every `.ts` file under src/, with its text. */
  const sources = (dir: string): [string, string][] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') ? [[path, readFileSync(path, 'utf8')]] : [];
    });

  it('each exported error class names itself with its own name, in a static block', () => {
    const unnamed: string[] = [];
    let count = 0;
    for (const [path, text] of sources(join(__dirname, '../../src'))) {
      for (const match of text.matchAll(
        /^export (?:abstract )?class (\w+) extends \w*Error\b[^{]*\{\n([\s\S]*?)^\}/gm,
      )) {
        const [, name, body] = match;
        count++;
        const named = body.includes(`this.defineName('${name}')`) || body.includes(`{ value: '${name}' }`);
        if (!/^\s+static \{/m.test(body) || !named) unnamed.push(`${name} (${path.slice(path.indexOf('src/'))})`);
      }
    }
    expect(count).toBeGreaterThanOrEqual(10);
    expect(unnamed).toEqual([]);
  });
});
