import fc from 'fast-check';

/**
 * Every property runs from one seed, so a failure seen in CI replays on any machine. `FC_SEED=<n>` explores other
 * inputs; a property that names its own seed keeps it.
 */
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20_261_201) });
