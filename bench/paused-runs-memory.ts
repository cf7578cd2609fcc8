/**
 * Question: what does a run waiting for a person cost to keep? 1,000 runs, each paused on a tool with
 * `needsApproval` (`stopReason: 'interactive'` with its `state`), kept in memory: the heap per waiting run
 * (heap with the states kept minus heap without them, over the number of runs, each after a full GC) and the
 * state's JSON size, once for a run paused on its first call and once for one paused after 10 turns of 2 KB
 * tool results; and the heap per run when the states are kept as JSON strings, as a store would hold them.
 * Budget (DESIGN §10): a paused run is its history plus a fixed overhead, nothing that grows with the loop.
 */
import { fork } from 'node:child_process';
import { runAgentLoop } from '../src/run-agent-loop';
import type { RunState } from '../src/agentCall/state/run-state';
import type { ToolDefinition } from '../src/toolCall/type';
import { concurrently, report, startBenchServer, type BenchServer } from './lib/harness';
import { lookupDefinition } from './lib/lookup-tool';

const RUNS = 1000;
const BATCH = 50; // runs started at once: enough to be quick, few enough not to grow the socket pool mid-measure
const RESULT_SIZE = 2048;

/** A scenario: the scripted model's plan, and which call of the run pauses it (`k<turn>` is the turn's key). */
const SCENARIOS = [
  { label: 'paused on its first call', model: 'bench-1-1', pauseOnKey: 'k0' },
  { label: `paused after 10 turns of ${RESULT_SIZE} B results`, model: 'bench-11-1', pauseOnKey: 'k10' },
];

export async function pausedRunsMemory(): Promise<void> {
  // Heap figures need a full GC before each reading; without --expose-gc the measurement runs in a child that has it.
  if (typeof global.gc !== 'function') return inChildWithGc();
  const server = await startBenchServer();
  try {
    console.log(`paused runs memory: ${RUNS} runs waiting for an approval, kept in memory, per waiting run`);
    for (const scenario of SCENARIOS) {
      const tool: ToolDefinition<{ key: string }> = {
        ...lookupDefinition(RESULT_SIZE),
        needsApproval: ({ params }) => params.key === scenario.pauseOnKey,
      };
      const states = await pausedStates(server, scenario.model, tool);
      await resumeOne(server, scenario.model, tool, JSON.stringify(states[0]));
      // Measured by taking away, not by adding: between two readings only a GC runs, none of the runs' own work
      // (sockets, compiled code, caches), which moves the heap by a few MB over 1,000 runs.
      const json = states.map((state) => JSON.stringify(state));
      const bytes = json.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / RUNS;
      const withBoth = await heapAfterGc();
      json.length = 0;
      const withStates = await heapAfterGc();
      states.length = 0;
      const withNone = await heapAfterGc();
      const asStrings = (withBoth - withStates) / RUNS;
      const asObjects = (withStates - withNone) / RUNS;
      console.log(`  ${scenario.label}`);
      report('RunState as JSON', bytes, 'B');
      report('heap per waiting run, state kept as object', asObjects, 'B', bytes);
      report('heap per waiting run, state kept as JSON string', asStrings, 'B', bytes);
    }
  } finally {
    server.stop();
  }
}

/** `RUNS` runs of `model`, each up to its pause; their states, nothing else of the result kept. */
async function pausedStates(server: BenchServer, model: string, tool: ToolDefinition): Promise<RunState[]> {
  const states: RunState[] = [];
  for (let start = 0; start < RUNS; start += BATCH) {
    const batch = await concurrently(BATCH, async (i) => {
      const result = await runAgentLoop({
        client: server.client,
        // Each run its own user message, as real runs have: no history shared between the states.
        body: { model, messages: [{ role: 'user', content: `Look things up, run ${start + i}.` }] },
        tools: [tool],
        maxRunAgentTimes: 20,
        maxConsecutiveToolTurns: 0,
      });
      if (result.stopReason !== 'interactive') throw new Error(`expected a pause, got ${result.stopReason}`);
      return result.state;
    });
    states.push(...batch);
  }
  return states;
}

/** A kept state still resumes: approve the pending call and run to the end. */
async function resumeOne(server: BenchServer, model: string, tool: ToolDefinition, json: string): Promise<void> {
  const state = JSON.parse(json) as RunState;
  const decisions = Object.fromEntries(state.pending.map((p) => [p.call.id, { approve: true as const }]));
  const result = await runAgentLoop({
    client: server.client,
    body: { model, messages: [] },
    tools: [tool],
    resumeFrom: state,
    decisions,
    maxRunAgentTimes: 20,
    maxConsecutiveToolTurns: 0,
  });
  if (result.stopReason !== 'completed') throw new Error(`resumed run ended with ${result.stopReason}`);
}

async function heapAfterGc(): Promise<number> {
  // Right after a batch, the HTTP client's pending callbacks still hold the last responses (~30 MB for the long
  // scenario); a short pause lets them run so only what the caller keeps is counted.
  await new Promise((resolve) => setTimeout(resolve, 250));
  // Two passes: the first may only queue finalizers whose memory the second frees.
  global.gc!();
  global.gc!();
  return process.memoryUsage().heapUsed;
}

/** Run this file again in a child started with --expose-gc, and wait for it. */
function inChildWithGc(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { execArgv: [...process.execArgv, '--expose-gc'], stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`paused-runs-memory exited with ${code}`)),
    );
  });
}

if (require.main === module) void pausedRunsMemory();
