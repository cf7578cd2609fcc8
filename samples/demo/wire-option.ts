import type { Wire } from '../../src';

/** Every wire `runAgentLoop({ wire })` takes, in the order the usage line names them. */
const WIRES: readonly Wire[] = ['auto', 'chat', 'responses'];

/** The demo's command line: its options, and the prompt made of the words after them. */
export type DemoArgs = { prompt: string; wire?: Wire } | { error: string };

/**
 * Read `--wire <wire>` (or `--wire=<wire>`) before the prompt, falling back to `OPENAI_WIRE`; the rest is the
 * prompt. An unknown wire is an error that names the choices, never a silent default.
 */
export function parseDemoArgs(args: readonly string[], env: Record<string, string | undefined>): DemoArgs {
  let wire: { value: string | undefined; from: string } | undefined = env.OPENAI_WIRE
    ? { value: env.OPENAI_WIRE, from: 'OPENAI_WIRE' }
    : undefined;
  let at = 0;
  for (; at < args.length; at++) {
    if (args[at] === '--wire') wire = { value: args[++at], from: '--wire' };
    else if (args[at]?.startsWith('--wire=')) wire = { value: args[at]?.slice('--wire='.length), from: '--wire' };
    else break;
  }
  const prompt = args.slice(at).join(' ').trim();
  if (wire === undefined) return { prompt };
  const chosen = readWire(wire.value, wire.from);
  return 'error' in chosen ? chosen : { prompt, ...chosen };
}

/**
 * The wire `OPENAI_WIRE` names, as options to spread into `runAgentLoop`'s: `{}` when it is unset, and an error
 * naming the choices when it names none of them.
 */
export function wireFromEnv(env: Record<string, string | undefined>): { wire?: Wire } {
  if (!env.OPENAI_WIRE) return {};
  const chosen = readWire(env.OPENAI_WIRE, 'OPENAI_WIRE');
  if ('error' in chosen) throw new Error(chosen.error);
  return chosen;
}

function readWire(value: string | undefined, from: string): { wire: Wire } | { error: string } {
  if ((WIRES as readonly (string | undefined)[]).includes(value)) return { wire: value as Wire };
  return { error: `${from} must be one of ${WIRES.join(', ')}; got ${JSON.stringify(value ?? '')}` };
}
