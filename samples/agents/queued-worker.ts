/**
 * The master agent on the queue, worker process: advances any run, its sub-agents' turns included (each one a
 * checkpoint of the run). `RUNS_SECRET=… node queued-worker.js`; the model comes from `OPENAI_API_KEY` (and
 * `OPENAI_BASE_URL`). SIGTERM finishes the runs in hand.
 */
import OpenAI from 'openai';
import { connect, openRuns } from '../queue/runs';
import { cashier, researcher } from './master-agent';

const connection = connect();
const runs = openRuns(connection);
const client = new OpenAI();

const worker = runs.worker({ setup: async () => ({ client, tools: [researcher, cashier] }) });
void worker.waitUntilReady().then(() => console.log('worker ready'));

process.on('SIGTERM', () => {
  void runs.close().then(() => connection.disconnect());
});
