// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { wireFromEnv } from '../demo/wire-option';
import { traceDemoRun } from './trace-demo';

/** Prints the span tree of the demo's run, as recorded by an in-memory exporter; `OPENAI_WIRE` chooses the wire. */
Promise.resolve()
  .then(() => traceDemoRun(wireFromEnv(process.env)))
  .then(
    (tree) => console.log(tree),
    (error: unknown) => {
      console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
