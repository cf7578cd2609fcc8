/** Runs every benchmark in turn: `npm run bench`. Each file also runs alone: `node .bench/bench/<name>.js`. */
import { agentOverhead } from './agent-overhead';
import { concurrentStreams } from './concurrent-streams';
import { devtoolsOpen } from './devtools-open';
import { historyGrowth } from './history-growth';
import { masking } from './masking';
import { mcpHttpCall } from './mcp-http-call';
import { nestjsTools } from './nestjs-tools';
import { pausedRunsMemory } from './paused-runs-memory';
import { postgresStore } from './postgres-store';
import { queuedRuns } from './queued-runs';
import { responsesStepOverhead } from './responses-step-overhead';
import { responsesStreamProcessing } from './responses-stream-processing';
import { runStateSize } from './run-state-size';
import { stepOverhead } from './step-overhead';
import { streamProcessing } from './stream-processing';
import { toolConcurrency } from './tool-concurrency';
import { toolSearchStall } from './tool-search-stall';

async function main(): Promise<void> {
  console.log(`agentcall benchmarks — node ${process.version}, ${process.platform}/${process.arch}\n`);
  for (const bench of [
    stepOverhead,
    responsesStepOverhead,
    agentOverhead,
    historyGrowth,
    streamProcessing,
    responsesStreamProcessing,
    concurrentStreams,
    toolConcurrency,
    masking,
    queuedRuns,
    postgresStore,
    nestjsTools,
    mcpHttpCall,
    runStateSize,
    pausedRunsMemory,
    devtoolsOpen,
    toolSearchStall,
  ]) {
    await bench();
    console.log();
  }
}

void main();
