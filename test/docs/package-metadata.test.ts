import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

type Manifest = {
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  files: string[];
};
const pkg = JSON.parse(read('package.json')) as Manifest;

describe('package metadata', () => {
  it('names the repository, the homepage and where to report bugs, all on one GitHub repository', () => {
    const url = pkg.repository?.url ?? '';
    const match = /^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+)\.git$/.exec(url);
    expect({ type: pkg.repository?.type, url }).toEqual({ type: 'git', url: expect.stringMatching(/github\.com/) });
    const repo = match?.[1];
    expect(repo).toBeDefined();
    expect(pkg.homepage).toBe(`https://github.com/${repo}#readme`);
    expect(pkg.bugs?.url).toBe(`https://github.com/${repo}/issues`);
    // The package is the repository's root: npm resolves the README's relative links against the repository, and a
    // `directory` would put them under it.
    expect(pkg.repository?.directory).toBeUndefined();
  });

  it('ships no source maps: the build emits none, and none left by an older build is packed', () => {
    const build = JSON.parse(read('tsconfig.build.json')) as { compilerOptions: Record<string, unknown> };
    expect(build.compilerOptions.sourceMap).toBe(false);
    expect(build.compilerOptions.inlineSources).toBeUndefined();
    expect(pkg.files).toContain('!dist/**/*.map');
  });
});
