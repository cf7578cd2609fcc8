/**
 * The worker process: advances any run of the queue. `RUNS_SECRET=… node worker.js`; the model comes from
 * `OPENAI_API_KEY` (and `OPENAI_BASE_URL` for another OpenAI-compatible server). SIGTERM finishes the runs in hand.
 */
import OpenAI from 'openai';
import { connect, openRuns } from './runs';
import { refundOrder } from './tools';

const connection = connect();
const runs = openRuns(connection);
const client = new OpenAI();

const worker = runs.worker({
  concurrency: 4,
  // Called for each job with the run's id and the `meta` it was started with.
  setup: async ({ meta }) => ({ client, tools: [refundOrder], caller: meta }),
});
void worker.waitUntilReady().then(() => console.log('worker ready'));

process.on('SIGTERM', () => {
  void runs.close().then(() => connection.disconnect());
});
