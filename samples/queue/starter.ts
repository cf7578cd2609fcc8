/**
 * The starter process: starts a run and prints its events until it waits for a person or ends.
 * `RUNS_SECRET=… node starter.js "Refund order A1"`
 */
import { connect, openRuns } from './runs';

async function main(prompt: string): Promise<void> {
  const connection = connect();
  const runs = openRuns(connection);
  const { runId } = await runs.start({
    body: { model: process.env.MODEL ?? 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] },
    meta: { user: 'ada' },
  });
  console.log(`run ${runId}`);
  for await (const event of runs.events(runId)) {
    if (event.type === 'text') process.stdout.write(event.text);
    if (event.type === 'tool_call') console.log(`calls ${event.call.function.name} ${event.call.function.arguments}`);
    if (event.type === 'tool_result') console.log(`${event.name}: ${event.outcome}`);
    if (event.type === 'status') console.log(`[${event.status}]`);
    // The events go on after a decision; this process stops here and the decider takes over.
    if (event.type === 'status' && event.status === 'waiting') break;
  }
  await runs.close();
  connection.disconnect();
}

void main(process.argv[2] ?? 'Refund order A1');
