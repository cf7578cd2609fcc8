// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { createInterface } from 'node:readline/promises';
import { runDemo } from './run-demo';

/** `npm run demo -- "<prompt>"`: the sample agent in the terminal. */
async function main(): Promise<void> {
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  process.exitCode = await runDemo({
    args: process.argv.slice(2),
    env: process.env,
    out: process.stdout,
    err: process.stderr,
    color: Boolean(process.stdout.isTTY),
    ask: interactive
      ? async ({ question }) => {
          const rl = createInterface({ input: process.stdin, output: process.stdout });
          try {
            return await rl.question(`${question}\n> `);
          } finally {
            rl.close();
          }
        }
      : undefined,
    confirm: interactive
      ? async () => {
          const rl = createInterface({ input: process.stdin, output: process.stdout });
          try {
            return await rl.question('> ');
          } finally {
            rl.close();
          }
        }
      : undefined,
  });
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
