import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; peerDependencies: { openai: string } };

describe('Node versions: package.json and the docs agree', () => {
  it.each(['README.md', 'docs/toolchain.md', 'docs/nestjs.md'])('%s states the engines range as it is', (file) => {
    expect(read(file)).toContain(pkg.engines.node);
  });

  it('the README and the toolchain page give each supported Node line its openai majors', () => {
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.12.0 || >=24.0.0');
    expect(pkg.peerDependencies.openai).toBe('^6.0.0 || ^7.0.0');
    expect(read('README.md')).toMatch(/\| 22\.12 or later on Node 22, Node 24 or later \| 6 or 7 \|/);
    expect(read('README.md')).toMatch(/\| 20\.19 or later on Node 20 [^|]*\| 6 only[^|]*\|/);
    const toolchain = read('docs/toolchain.md');
    expect(toolchain).toMatch(/\| 20, from 20\.19 [^|]*\| 6 \|/);
    expect(toolchain).toMatch(/\| 22, from 22\.12 \| 6 or 7 \|/);
    expect(toolchain).toMatch(/\| 24 and later \| 6 or 7 \|/);
  });
});
