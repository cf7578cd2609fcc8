/**
 * Question: what does going through one sub-agent cost in CPU, next to the same turns run flat? The nested run's root
 * calls `research` (a `defineAgent` agent) once; the agent looks things up on `TURNS` turns of its own and answers; the
 * root then answers. The flat run makes as many model requests in one loop with the same tool: `TURNS + 2` lookup
 * turns, then its answer. Both wires, the zero-latency scripted model in another process, single runs timed in seeded
 * shuffled blocks as the step-overhead benchmark does (ratios of the median runs, bootstrap 95% interval).
 * Budget (DESIGN §21): the nested run ≤ 1.05× the flat run's CPU.
 */
import { loadavg } from 'node:os';
import { defineAgent } from '../src/output/define-agent';
import { runAgentLoop } from '../src/run-agent-loop';
import type { Wire } from '../src/llm/wires/wire';
import type { RunAgentCallProps } from '../src/agentCall/type';
import { startBenchServer } from './lib/harness';
import { lookupDefinition } from './lib/lookup-tool';
import { measureBlocks } from './lib/per-run-samples';
import { reportVersus } from './lib/step-ratios';

const TURNS = 10;
/** Model requests per run, the same on both sides: the root's call and answer, the agent's turns and answer. */
const REQUESTS_PER_RUN = TURNS + 3;
const BLOCKS = { cycles: 100, blockRuns: 5, seed: 29 };
const BUDGET = 1.05;

/** `cycles` more than the default narrow the intervals on a busy machine: `node ... agent-overhead.js 400`. */
export async function agentOverhead(cycles = BLOCKS.cycles): Promise<void> {
  const [load1] = loadavg();
  console.log(`agent overhead — node ${process.version}, load ${load1.toFixed(1)} (1 min average)`);
  const server = await startBenchServer();
  const tools = [lookupDefinition(64)];
  // The server's plan is in the model's name (bench/lib/server-process.ts): the agent's model looks things up on
  // TURNS turns, the root's calls `research` once.
  const research = defineAgent({
    name: 'research',
    description: 'Looks things up and reports',
    instructions: 'You look things up.',
    tools,
    model: `bench-${TURNS}-1`,
    maxRunAgentTimes: 100,
  });
  const run = (wire: Wire, model: string, runTools: RunAgentCallProps['tools']) => () =>
    runAgentLoop({
      client: server.client,
      wire,
      body: { model, messages: [{ role: 'user', content: 'Look things up.' }] },
      tools: runTools,
      maxRunAgentTimes: 100,
      maxConsecutiveToolTurns: 0,
    });
  const variants = {
    chatFlat: run('chat', `bench-${TURNS + 2}-1`, tools),
    chatNested: run('chat', 'bench-1-1-research', [research]),
    responsesFlat: run('responses', `bench-${TURNS + 2}-1`, tools),
    responsesNested: run('responses', 'bench-1-1-research', [research]),
  };
  try {
    await checkRequests(variants);
    // Warm every path (JIT, sockets) before measuring.
    await measureBlocks(variants, { ...BLOCKS, cycles: 10 });
    const samples = await measureBlocks(variants, { ...BLOCKS, cycles });
    console.log(
      `${samples.chatFlat.length} runs of ${REQUESTS_PER_RUN} model requests per variant (${cycles} cycles of ` +
        `blocks of ${BLOCKS.blockRuns} runs, the first of each block discarded); CPU per request of the median run`,
    );
    const chat = reportVersus('chat: through one agent / flat', samples.chatNested, samples.chatFlat, REQUESTS_PER_RUN);
    const responses = reportVersus(
      'responses: through one agent / flat',
      samples.responsesNested,
      samples.responsesFlat,
      REQUESTS_PER_RUN,
    );
    const verdict = (high: number) => (high <= BUDGET ? 'met, at the 95% bound' : 'not shown at the 95% bound');
    console.log(`  budget ≤ ${BUDGET}×: chat ${verdict(chat)}; responses ${verdict(responses)}`);
    console.log(`  load at the end ${loadavg()[0].toFixed(1)} (1 min average)`);
  } finally {
    server.stop();
  }
}

/** Both sides must make the same requests, or the ratio compares different work: each run is checked once. */
async function checkRequests(variants: Record<string, () => ReturnType<typeof runAgentLoop>>): Promise<void> {
  for (const [name, variant] of Object.entries(variants)) {
    const result = await variant();
    if (result.stopReason !== 'completed' || result.usages.length !== REQUESTS_PER_RUN) {
      throw new Error(`${name}: ${result.stopReason} after ${result.usages.length} requests, not ${REQUESTS_PER_RUN}`);
    }
  }
}

if (require.main === module) void agentOverhead(Number(process.argv[2]) || undefined);
