import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/** Run a node script of the repo's node_modules in `cwd`; resolves with its exit code and output. */
function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Colours are dropped: the output is read by the test.
  const plain = (text: string) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, output: plain(output) })));
}

/**
 * A project of exported tests, as a user's would hold them: `agentcall` and its entries mapped to the source tree the
 * way the user's project maps them to the package, the repo's node_modules beside it. Removed by `remove()`.
 */
export function exportedProject(files: Record<string, string>) {
  const dir = mkdtempSync(join(root, 'test/devtools/.exported-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const paths = { agentcall: [join(root, 'src/index.ts')], 'agentcall/*': [join(root, 'src/*')] };
  // `strict`, as a user's project compiles the files. The library is read from its source here (a user's project
  // reads its declarations), so flags beyond `strict` that the source is not written for stay off.
  const compilerOptions = {
    target: 'ES2022',
    module: 'node16',
    moduleResolution: 'node16',
    strict: true,
    skipLibCheck: true,
    esModuleInterop: true,
    experimentalDecorators: true,
    noEmit: true,
    paths,
  };
  const tsconfig = (include: string[], types: string[]) =>
    JSON.stringify({
      compilerOptions: { ...compilerOptions, types },
      include: [...include, join(root, 'src/definitions/model/class-transformer-storage.d.ts')],
    });
  // Jest files lean on jest's global types; Vitest files import what they use, so they get no global types at all.
  writeFileSync(join(dir, 'tsconfig.jest.json'), tsconfig(['*.jest.test.ts'], ['node', 'jest']));
  writeFileSync(join(dir, 'tsconfig.vitest.json'), tsconfig(['*.vitest.test.ts'], ['node']));
  const alias = { '^agentcall$': join(root, 'src/index.ts'), '^agentcall/(.*)$': join(root, 'src/$1') };
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.vitest.test.ts'], testTimeout: 60000 }, resolve: { alias: [
      { find: /^agentcall$/, replacement: ${JSON.stringify(alias['^agentcall$'])} },
      { find: /^agentcall\\/(.*)$/, replacement: ${JSON.stringify(join(root, 'src'))} + '/$1' },
    ] } };\n`,
  );
  const jestConfig = {
    rootDir: dir,
    testEnvironment: 'node',
    testMatch: ['**/*.jest.test.ts'],
    transform: { '^.+\\.ts$': [join(root, 'node_modules/ts-jest'), { tsconfig: join(root, 'tsconfig.json') }] },
    moduleNameMapper: alias,
    moduleDirectories: ['node_modules', join(root, 'node_modules')],
  };
  return {
    dir,
    typeCheck: (runner: 'jest' | 'vitest') =>
      run([join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, `tsconfig.${runner}.json`)], dir),
    jest: () =>
      run(
        [join(root, 'node_modules/jest/bin/jest.js'), '--config', JSON.stringify(jestConfig), '--ci', '--colors=false'],
        root,
      ),
    vitest: () => run([join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.mjs'], dir),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
