// Copies the repository's samples into this project as a user would write them: the library as `agentcall` and
// `agentcall/<entry>` instead of the source tree, and relative imports with the `.js` that ES modules need.
// Nothing else changes, so what compiles here is the samples' own code.
// Usage: node prepare.mjs <repository root>
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? '');
const src = join(root, 'src');
/** The package's entries deeper than one folder (`devtools/queue`), as its `exports` map names them. */
const deepEntries = new Set(
  Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports)
    .map((key) => key.replace(/^\.\/?/, ''))
    .filter((key) => key.includes('/')),
);
cpSync(join(root, 'samples'), 'samples', { recursive: true });

/** The specifier an ES module consumer writes for `specifier` as written in `file` of the repository. */
function consumerSpecifier(file, specifier) {
  const target = resolve(dirname(file), specifier);
  if (target === src || target === join(src, 'index')) return 'agentcall';
  if (dirname(target) === src) return `agentcall/${relative(src, target)}`;
  if (deepEntries.has(relative(src, target).split(sep).join('/'))) return `agentcall/${relative(src, target)}`;
  if (target.startsWith(src + sep)) throw new Error(`${file}: ${specifier} is not a public entry`);
  if (existsSync(`${target}.ts`)) return `${specifier}.js`;
  if (existsSync(join(target, 'index.ts'))) return `${specifier}/index.js`;
  return specifier;
}

for (const entry of readdirSync('samples', { recursive: true })) {
  const file = join('samples', entry);
  if (!file.endsWith('.ts') || !statSync(file).isFile()) continue;
  const original = join(root, file);
  const text = readFileSync(file, 'utf8').replace(
    /(\bfrom\s+|\bimport\(\s*|^import\s+)(['"])(\.{1,2}\/[^'"]+)\2/gm,
    (_match, before, quote, specifier) => `${before}${quote}${consumerSpecifier(original, specifier)}${quote}`,
  );
  writeFileSync(file, text);
}
