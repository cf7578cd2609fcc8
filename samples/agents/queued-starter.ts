/**
 * The master agent on the queue, starter process: starts a run and prints its events, its sub-agents' calls
 * included, until it waits for a person or ends. `RUNS_SECRET=… node queued-starter.js "Find shoes and refund order 42"`
 */
import { connect, openRuns } from '../queue/runs';

async function main(prompt: string): Promise<void> {
  const connection = connect();
  const runs = openRuns(connection);
  const { runId } = await runs.start({
    body: { model: process.env.MODEL ?? 'gpt-5-mini', messages: [{ role: 'user', content: prompt }] },
  });
  console.log(`run ${runId}`);
  for await (const event of runs.events(runId)) {
    if (event.type === 'tool_call') console.log(`calls ${event.call.function.name} ${event.call.function.arguments}`);
    if (event.type === 'status') console.log(`[${event.status}]`);
    if (event.type === 'status' && event.status === 'waiting') break;
  }
  await runs.close();
  connection.disconnect();
}

void main(process.argv[2] ?? 'Find shoes and refund order 42');
