/**
 * Question: how long can one model turn of `search_tools` calls hold the event loop? The deferred set `mcpTools`
 * allows by default (1,000 tools, 2,000-character descriptions), a turn of 64 `search_tools` calls of 500-character
 * queries through `runAgentLoop`, the scripted model in this process. Each run gets a new tool array, so the search
 * index is built inside the measured run. The longest stall is the largest delay `monitorEventLoopDelay` saw.
 * On a loaded machine that delay also counts the time the OS gave the process no core, so each round also runs a
 * baseline: the same turn of 64 calls to a plain tool, no search, whose longest delay is the machine's share; and a
 * `setImmediate` ticker reads the process's CPU time at each turn of the loop, so the longest stretch between two
 * ticks is also given in CPU time, which the time spent waiting for a core does not inflate.
 * Budget: no turn of `search_tools` stalls the loop for more than 100 ms on that set.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { runAgentLoop } from '../src/run-agent-loop';
import { startScriptedServer, type ScriptedServer } from '../src/testing';
import { median } from './lib/harness';
import type { ToolDefinition } from '../src/toolCall/type';
import { madeUpWords as words } from '../test/helpers/made-up-words';

const TOOLS = 1_000;
const DESCRIPTION_CHARS = 2_000;
const QUERIES = 64;
const QUERY_CHARS = 500;
const RUNS = 5;
const BUDGET_MS = 100;

function deferredSet(): ToolDefinition[] {
  return Array.from({ length: TOOLS }, (_, i) => ({
    schema: {
      type: 'function' as const,
      function: {
        name: `tool_${i}`,
        description: words(i + 1, DESCRIPTION_CHARS),
        parameters: { type: 'object', properties: {} },
      },
    },
    deferred: true,
    remote: true,
    execute: async () => ({ response: `tool_${i} ran` }),
  }));
}

type Stall = { wallMs: number; cpuMs: number };

/** Longest CPU time (user + system, ms) between two turns of the event loop until `stop` is called. */
function cpuTicker(): { stop: () => number } {
  let longest = 0;
  let last = process.cpuUsage();
  let running = true;
  const tick = () => {
    if (!running) return;
    const now = process.cpuUsage();
    longest = Math.max(longest, (now.user - last.user + now.system - last.system) / 1000);
    last = now;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      running = false;
      return longest;
    },
  };
}

/** One run of a turn of `calls` and the longest event-loop stall it saw, by the clock and in CPU time. */
async function longestStall(server: ScriptedServer, tools: ToolDefinition[], calls: ToolCallScript[]): Promise<Stall> {
  server.enqueue({ toolCalls: calls }, { text: 'done' });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const ticker = cpuTicker();
  const result = await runAgentLoop({
    client: server.client(),
    body: { model: 'bench', messages: [{ role: 'user', content: 'Find tools.' }] },
    tools,
    maxToolCallsPerTurn: QUERIES,
  });
  delay.disable();
  const cpuMs = ticker.stop();
  if (result.stopReason !== 'completed') throw new Error(`run ended ${result.stopReason}`);
  return { wallMs: delay.max / 1e6, cpuMs };
}

type ToolCallScript = { id: string; name: string; arguments: { query: string } };

export async function toolSearchStall(): Promise<void> {
  const server = await startScriptedServer();
  const queries = Array.from({ length: QUERIES }, (_, i) => words(10_000 + i, QUERY_CHARS));
  const searches = queries.map((query, i) => ({ id: `s${i}`, name: 'search_tools', arguments: { query } }));
  const plain = queries.map((query, i) => ({ id: `p${i}`, name: 'echo', arguments: { query } }));
  const echo: ToolDefinition = {
    schema: { type: 'function', function: { name: 'echo', parameters: { type: 'object', properties: {} } } },
    execute: async () => ({ response: 'ok' }),
  };
  const stalls: Stall[] = [];
  const baseline: Stall[] = [];
  const loads: number[] = [];
  try {
    for (let run = 0; run <= RUNS; run++) {
      loads.push(loadavg()[0]);
      // A new array each run: the index is built inside the run, as on a process's first search.
      const searched = await longestStall(server, deferredSet(), searches);
      const plainRun = await longestStall(server, [echo], plain);
      // The first round warms the JIT and the sockets; it is not counted.
      if (run > 0) {
        stalls.push(searched);
        baseline.push(plainRun);
      }
    }
  } finally {
    await server.close();
  }
  const ms = (values: Stall[], key: keyof Stall) => values.map((s) => s[key].toFixed(1)).join(', ');
  const worst = (values: Stall[], key: keyof Stall) => Math.max(...values.map((s) => s[key]));
  console.log(
    `tool-search stall: ${QUERIES} search_tools calls in one turn on ${TOOLS} deferred tools of ` +
      `${DESCRIPTION_CHARS}-character descriptions, index built in the run; node ${process.version}, ` +
      `load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  );
  console.log(`  longest stall per run, by the clock (ms):          ${ms(stalls, 'wallMs')}`);
  console.log(`    the same turn, 64 calls to a plain tool (ms):    ${ms(baseline, 'wallMs')}`);
  console.log(`  longest stall per run, in CPU time (ms):          ${ms(stalls, 'cpuMs')}`);
  console.log(`    the same turn, 64 calls to a plain tool (ms):    ${ms(baseline, 'cpuMs')}`);
  const byClock = worst(stalls, 'wallMs');
  const byCpu = worst(stalls, 'cpuMs');
  const verdict = (value: number) => (value <= BUDGET_MS ? 'met' : 'not met');
  console.log(
    `  worst ${byClock.toFixed(1)} ms by the clock (median ${median(stalls.map((s) => s.wallMs)).toFixed(1)} ms), ` +
      `${byCpu.toFixed(1)} ms in CPU time; budget ${BUDGET_MS} ms: ${verdict(byClock)} by the clock, ` +
      `${verdict(byCpu)} in CPU time`,
  );
}

if (require.main === module) void toolSearchStall();
