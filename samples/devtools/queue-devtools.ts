import { Redis } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';
import { startDevtools } from '../../src/devtools';
import { bullmqRunSource } from '../../src/devtools/queue';

/**
 * The queue's way, from code (`npx agentcall-devtools --redis <url>` does the same): the page over the runs of
 * an `AgentRuns` queue, whichever process or worker runs them. With the runs' secret the page can decide.
 */
export async function queueDevtools(redisUrl: string) {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const secret = process.env.AGENTCALL_RUNS_SECRET;
  const runs = new AgentRuns({ connection, ...(secret && { secret }) });
  const devtools = await startDevtools({
    source: bullmqRunSource({ runs, connection }),
    pricing: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } },
  });
  console.log(`devtools: ${devtools.url}`);
  return {
    url: devtools.url,
    close: async () => {
      await devtools.close();
      await runs.close();
      connection.disconnect();
    },
  };
}
