/**
 * Question: does `toolConcurrency` finish a turn in the time of its slowest tool?
 * One turn of 4 calls taking 20/40/60/80 ms, then an answer; wall time against sequential execution and
 * against the ideal (the slowest tool plus two model round trips with an instant tool).
 */
import { runAgentLoop } from '../src/run-agent-loop';
import type { ToolDefinition } from '../src/toolCall/type';
import { compare, report, startBenchServer } from './lib/harness';
import { lookupSchema } from './lib/lookup-tool';

const DELAYS = [20, 40, 60, 80];
const ROUNDS = 7;

export async function toolConcurrency(): Promise<void> {
  const server = await startBenchServer();
  const sleeper = (delay: (slot: number) => number): ToolDefinition<{ slot: number }> => ({
    schema: lookupSchema,
    execute: ({ params }) =>
      new Promise((resolve) => setTimeout(() => resolve({ response: 'ok' }), delay(params.slot))),
  });
  const wall = (tools: ToolDefinition[], concurrency: number) => async () => {
    const start = performance.now();
    await runAgentLoop({
      client: server.client,
      body: { model: `bench-1-${DELAYS.length}`, messages: [{ role: 'user', content: 'Go.' }] },
      tools,
      toolConcurrency: concurrency,
    });
    return performance.now() - start;
  };
  try {
    const variants = {
      ideal: wall([sleeper(() => 0)], DELAYS.length),
      sequential: wall([sleeper((slot) => DELAYS[slot])], 1),
      concurrent: wall([sleeper((slot) => DELAYS[slot])], DELAYS.length),
    };
    await compare(variants, 1);
    const r = await compare(variants, ROUNDS);
    const ideal = r.ideal + Math.max(...DELAYS);
    console.log(
      `tool concurrency: one turn of ${DELAYS.length} calls (${DELAYS.join('/')} ms), median of ${ROUNDS}, wall time`,
    );
    report('ideal (slowest tool + 2 requests)', ideal, 'ms');
    report('toolConcurrency: 1 (sequential)', r.sequential, 'ms', ideal);
    report(`toolConcurrency: ${DELAYS.length}`, r.concurrent, 'ms', ideal);
  } finally {
    server.stop();
  }
}

if (require.main === module) void toolConcurrency();
