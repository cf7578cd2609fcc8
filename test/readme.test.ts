import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** README code blocks that name the sample file they come from: ```ts samples/… */
const blocks = [...readme.matchAll(/```ts (\S+)\n([\s\S]*?)```/g)].map(([, file, code]) => ({ file, code }));

/** README imports the package; samples import the source tree. */
function asInSample(line: string): string {
  return line
    .replace(/from 'agentcall(\/\w+)?'/, (_m, sub: string | undefined) => `from '../../src${sub ?? ''}'`)
    .trim();
}

describe('README examples', () => {
  it('names sample files for its Writing tools examples', () => {
    expect(blocks.map((b) => b.file)).toEqual(
      expect.arrayContaining([
        'samples/writing-tools/inline-params.ts',
        'samples/writing-tools/dto-params.ts',
        'samples/writing-tools/results.ts',
        'samples/writing-tools/build-tools.ts',
        'samples/writing-tools/agent.ts',
      ]),
    );
  });

  it.each(blocks.map((b) => [b.file, b.code]))(
    '%s: every line shown is in the compiled sample, in order',
    (file, code) => {
      const sample = readFileSync(join(root, file), 'utf8')
        .split('\n')
        .map((l) => l.trim());
      let at = 0;
      const missing: string[] = [];
      for (const line of code.split('\n').map(asInSample).filter(Boolean)) {
        const found = sample.indexOf(line, at);
        if (found === -1) missing.push(line);
        else at = found + 1;
      }
      expect(missing).toEqual([]);
    },
  );
});
