// Builds `agentcall/testing` a second time as ES modules, declarations included. An ES module project that imports
// `openai` gets the SDK's ES module build and its `.d.mts` declarations; a client made by the CommonJS build would be
// the other build's `OpenAI`, a different class to the compiler (its members are `#private`) and to `instanceof`.
// The test kit shares no state with the rest of agentcall, so a second copy of it is safe: the core stays one
// CommonJS copy for both module systems.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist/testing');

await build({
  entryPoints: [join(root, 'src/testing/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outfile: join(out, 'index.mjs'),
  logLevel: 'warning',
});

/** In a `.d.mts` a relative import names its file: `./types.mjs` (TypeScript reads `./types.d.mts`). */
function esmSpecifier(fromFile, specifier) {
  const target = resolve(dirname(fromFile), specifier);
  if (existsSync(`${target}.d.ts`)) return `${specifier}.mjs`;
  if (existsSync(join(target, 'index.d.ts'))) return `${specifier}/index.mjs`;
  throw new Error(`${fromFile}: cannot resolve ${specifier}`);
}

for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, 'utf8').replace(
    /(\bfrom\s+|\bimport\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
    (_match, before, quote, specifier) => `${before}${quote}${esmSpecifier(file, specifier)}${quote}`,
  );
  writeFileSync(file.replace(/\.d\.ts$/, '.d.mts'), text);
}
