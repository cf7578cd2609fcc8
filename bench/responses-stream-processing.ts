/**
 * Question: what does the Responses wire add on top of the SDK's own parsing of a Responses stream? One long streamed
 * response (text in 4-character deltas plus a function call in 4-character argument deltas), read by the bare SDK
 * (`client.responses.create({ stream: true })`) and by `createLLMResponse` with `wire: 'responses'`, through the
 * SDK's stream parser (`streamParser: 'sdk'`) and through the lean one (the default).
 * Budget (DESIGN §16): stream processing ≤ 0.5× the SDK's own CPU per event.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import OpenAI from 'openai';
import { compare, cpuMicros, report } from './lib/harness';
import { timedRequests } from './lib/timed-requests';

const CHARS = 20_000;
const REQUESTS = 10;
const ROUNDS = 7;

export async function responsesStreamProcessing(): Promise<void> {
  const child = fork(join(__dirname, 'lib/responses-body-process.js'), [String(CHARS)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const baseURL = await new Promise<string>((resolve) =>
    child.once('message', (message) => resolve((message as { baseURL: string }).baseURL)),
  );
  const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 });
  const messages = [{ role: 'user' as const, content: 'Stream.' }];
  try {
    const sdk = () =>
      cpuMicros(async () => {
        for (let i = 0; i < REQUESTS; i++) {
          const stream = await client.responses.create({ model: 'bench', input: 'Stream.', stream: true });
          let text = '';
          let args = '';
          for await (const event of stream) {
            if (event.type === 'response.output_text.delta') text += event.delta;
            else if (event.type === 'response.function_call_arguments.delta') args += event.delta;
          }
          if (text.length !== CHARS || !args) throw new Error('bad stream');
        }
      });
    const agentcall = timedRequests(REQUESTS, CHARS, { client, wire: 'responses', body: { model: 'bench', messages } });
    const runs = {
      sdk,
      bare: agentcall(false, 'sdk'),
      lean: agentcall(false, 'lean'),
      leanHooks: agentcall(true, 'lean'),
    };
    await compare(runs, 2);
    const r = await compare(runs, ROUNDS);
    const events = REQUESTS * (CHARS / 4) * 2;
    console.log(
      `Responses stream processing: ${REQUESTS} responses of ~${events / REQUESTS} events each, median of ${ROUNDS}, CPU per event`,
    );
    const base = (r.sdk / events) * 1000;
    report('openai SDK responses stream, accumulated', base, 'ns');
    report('createLLMResponse sdk parser, no hooks', (r.bare / events) * 1000, 'ns', base);
    report('createLLMResponse lean parser, no hooks', (r.lean / events) * 1000, 'ns', base);
    report('createLLMResponse lean parser, with hooks', (r.leanHooks / events) * 1000, 'ns', base);
  } finally {
    child.disconnect();
  }
}

if (require.main === module) void responsesStreamProcessing();
