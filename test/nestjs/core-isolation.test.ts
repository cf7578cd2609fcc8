import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT_SPEC =
  /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** The module specifiers a source file imports or re-exports. */
function specifiersOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT_SPEC)].map((m) => m[1] ?? m[2] ?? m[3]).filter(Boolean);
}

/** Every file reachable by relative imports from `entry`, with the bare package names they import. */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of specifiersOf(file)) {
      if (!spec.startsWith('.')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
        continue;
      }
      const base = resolve(dirname(file), spec);
      const target = [`${base}.ts`, join(base, 'index.ts')].find(existsSync);
      if (target) visit(target);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('entry points', () => {
  const src = resolve(__dirname, '../../src');

  it('the core entry never imports NestJS or the nestjs adapter', () => {
    const { files, packages } = importGraph(join(src, 'index.ts'));
    expect([...packages].filter((p) => p.startsWith('@nestjs'))).toEqual([]);
    expect([...files].filter((f) => f.includes(`${join(src, 'nestjs')}`))).toEqual([]);
    expect(files.size).toBeGreaterThan(10);
  });

  it('the core entry never imports the devtools, Preact, htm, esbuild or Playwright', () => {
    const { files, packages } = importGraph(join(src, 'index.ts'));
    expect([...files].filter((f) => f.startsWith(join(src, 'devtools')))).toEqual([]);
    expect([...packages].filter((p) => /^(preact|htm|esbuild|playwright)/.test(p))).toEqual([]);
  });

  it('the devtools entry loads neither Preact nor esbuild on the server (the page is a built bundle)', () => {
    const { packages } = importGraph(join(src, 'devtools/index.ts'));
    expect([...packages].filter((p) => /^(preact|htm|esbuild|playwright)/.test(p))).toEqual([]);
  });

  it('the nestjs entry imports only @nestjs/common and @nestjs/core from Nest', () => {
    const { packages } = importGraph(join(src, 'nestjs/index.ts'));
    expect([...packages].filter((p) => p.startsWith('@nestjs')).sort()).toEqual(['@nestjs/common', '@nestjs/core']);
  });

  const ADAPTERS = ['nestjs', 'bullmq', 'mcp', 'testing', 'devtools'];

  it.each(ADAPTERS)('the %s adapter uses only the entries of the core (and of other adapters)', (adapter) => {
    const folder = join(src, adapter);
    const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(folder, name));
    // Entries: the core's index and each adapter's own index (what `agentcall/<name>` gives a user), and the
    // core's internal entry the adapters share.
    const entries = new Set([
      join(src, 'index'),
      join(src, 'internal'),
      ...ADAPTERS.map((name) => join(src, name)),
      ...ADAPTERS.map((name) => join(src, name, 'index')),
    ]);
    const reachingIn = files.flatMap((file) =>
      specifiersOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolve(dirname(file), spec))
        .filter((target) => !target.startsWith(folder + '/') && !entries.has(target))
        .map((target) => `${relative(src, file)} imports ${relative(src, target)}`),
    );
    expect(files.length).toBeGreaterThan(0);
    expect(reachingIn).toEqual([]);
  });
});
