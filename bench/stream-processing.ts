/**
 * Question: what does agentcall add on top of the SDK's own stream parsing? One long streamed reply
 * (text in 4-character chunks plus a tool call in 4-character argument fragments), read by the bare SDK
 * and by `createLLMResponse`, with and without hooks, through the SDK's stream parser (`streamParser: 'sdk'`) and
 * through the lean one (the default).
 * Budget (DESIGN §8): the lean path ≤ 0.5× the SDK's own CPU per chunk.
 */
import { compare, cpuMicros, report, startBenchServer } from './lib/harness';
import { timedRequests } from './lib/timed-requests';
import { lookupSchema } from './lib/lookup-tool';

const CHARS = 20_000;
const REQUESTS = 10;
const ROUNDS = 7;

export async function streamProcessing(): Promise<void> {
  const server = await startBenchServer();
  const model = `bench-stream-${CHARS}`;
  const messages = [{ role: 'user' as const, content: 'Stream.' }];
  try {
    const sdk = () =>
      cpuMicros(async () => {
        for (let i = 0; i < REQUESTS; i++) {
          const stream = await server.client.chat.completions.create({
            model,
            messages,
            tools: [lookupSchema],
            stream: true,
            stream_options: { include_usage: true },
          });
          let text = '';
          let args = '';
          for await (const chunk of stream) {
            const delta = chunk.choices[0]?.delta;
            if (delta?.content) text += delta.content;
            for (const tc of delta?.tool_calls ?? []) args += tc.function?.arguments ?? '';
          }
          if (text.length !== CHARS || !args) throw new Error('bad stream');
        }
      });
    const agentcall = timedRequests(REQUESTS, CHARS, {
      client: server.client,
      body: { model, messages, tools: [lookupSchema] },
    });
    const runs = {
      sdk,
      bare: agentcall(false, 'sdk'),
      hooks: agentcall(true, 'sdk'),
      lean: agentcall(false, 'lean'),
      leanHooks: agentcall(true, 'lean'),
    };
    await compare(runs, 2);
    const r = await compare(runs, ROUNDS);
    const chunks = REQUESTS * (CHARS / 4) * 2;
    console.log(
      `stream processing: ${REQUESTS} replies of ~${(CHARS / 2) | 0} chunks each, median of ${ROUNDS}, CPU per chunk`,
    );
    report('openai SDK stream, accumulated', (r.sdk / chunks) * 1000, 'ns');
    report('createLLMResponse sdk parser, no hooks', (r.bare / chunks) * 1000, 'ns', (r.sdk / chunks) * 1000);
    report('createLLMResponse sdk parser, with hooks', (r.hooks / chunks) * 1000, 'ns', (r.sdk / chunks) * 1000);
    report('createLLMResponse lean parser, no hooks', (r.lean / chunks) * 1000, 'ns', (r.sdk / chunks) * 1000);
    report('createLLMResponse lean parser, with hooks', (r.leanHooks / chunks) * 1000, 'ns', (r.sdk / chunks) * 1000);
  } finally {
    server.stop();
  }
}

if (require.main === module) void streamProcessing();
