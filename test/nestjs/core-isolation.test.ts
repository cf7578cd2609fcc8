import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Every file reachable by relative imports from `entry`, with the bare package names they import. */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(
      /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
    )) {
      if (!spec) continue;
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

  it('the nestjs entry imports only @nestjs/common and @nestjs/core from Nest', () => {
    const { packages } = importGraph(join(src, 'nestjs/index.ts'));
    expect([...packages].filter((p) => p.startsWith('@nestjs')).sort()).toEqual(['@nestjs/common', '@nestjs/core']);
  });
});
