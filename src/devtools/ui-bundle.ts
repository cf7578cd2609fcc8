import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The page's script and style sheet. */
export type UiAssets = { js: string; css: string };

/** The part of esbuild used here, so that nothing of the package is needed where the page is built already. */
type Esbuild = {
  build(options: object): Promise<{ outputFiles: { path: string; text: string }[] }>;
};

let cached: UiAssets | undefined;

/**
 * The built page: `ui/app.js` and `ui/app.css` beside this file in the package. Run from the source tree (tests,
 * `ts-node`) there is no build yet, so the page is bundled once here with esbuild, a development dependency.
 */
export async function uiAssets(): Promise<UiAssets> {
  if (cached) return cached;
  const dir = join(__dirname, 'ui');
  if (existsSync(join(dir, 'app.js'))) {
    cached = { js: readFileSync(join(dir, 'app.js'), 'utf8'), css: readFileSync(join(dir, 'app.css'), 'utf8') };
    return cached;
  }
  // A plain require: esbuild is CommonJS, and a dynamic import would need a loader jest does not give.
  const esbuild = createRequire(__filename)('esbuild') as Esbuild;
  const result = await esbuild.build({
    entryPoints: { app: join(dir, 'main.ts') },
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    outdir: join(dir, 'out'),
    write: false,
    logLevel: 'silent',
  });
  const text = (ext: string) => result.outputFiles.find((file) => file.path.endsWith(ext))?.text ?? '';
  cached = { js: text('.js'), css: text('.css') };
  return cached;
}
