import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The bare package names reachable by relative imports from `entry`. */
function packagesOf(entry: string): Set<string> {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
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
  return packages;
}

describe('agentcall/mcp and the core', () => {
  const src = resolve(__dirname, '../../src');

  it('the core entry needs no MCP package and no Ajv', () => {
    const packages = [...packagesOf(join(src, 'index.ts'))];
    expect(packages.filter((name) => /^(@modelcontextprotocol|ajv)/.test(name))).toEqual([]);
  });

  it('the mcp adapter reaches the core only through its entries (public and internal)', () => {
    const mcpDir = join(src, 'mcp');
    const files = readdirSync(mcpDir).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      const text = readFileSync(join(mcpDir, name), 'utf8');
      for (const [, spec] of text.matchAll(/from\s+'(\.[^']*)'/g))
        expect(spec).toMatch(/^(\.\/[a-z-]+|\.\.\/index|\.\.\/internal)$/);
    }
  });
});
