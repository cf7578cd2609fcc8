import { startScriptedServer } from '../../src/testing';
import type { RecordedRequest, ScriptedReply } from '../../src/testing';

/**
 * A scripted model in its own process, so the benchmarks measure only the client's CPU.
 *
 * The model name carries the plan: `bench-<toolTurns>-<callsPerTurn>[-<tool>]` calls `lookup` (or `<tool>`, one of
 * {@link ARGUMENTS}) on that many turns (counting the tool messages already in the history), then answers.
 * `bench-stream-<n>` streams a long reply. `bench-paced-<toolTurns>-<deltas>-<delayMs>` streams like a real model:
 * `<deltas>` deltas per reply, one SSE event every `<delayMs>`, with a `lookup` call on `<toolTurns>` turns.
 */
function reply(request: RecordedRequest): ScriptedReply {
  const [, toolTurns = '1', callsPerTurn = '1', tool = 'lookup'] = String(request.body.model).split('-');
  if (toolTurns === 'stream') return streamReply(Number(callsPerTurn));
  if (toolTurns === 'paced') {
    const [, , turns, deltas, delayMs] = String(request.body.model).split('-').map(Number);
    const turn = answeredCalls(request);
    return pacedReply(turn < turns ? turn : null, deltas, delayMs);
  }
  const turns = Number(toolTurns);
  const perTurn = Number(callsPerTurn);
  const turn = answeredCalls(request) / perTurn;
  if (turn >= turns) return { text: 'All done.', usage: { prompt_tokens: 1, completion_tokens: 1 } };
  return {
    toolCalls: Array.from({ length: perTurn }, (_, i) => ({
      id: `call_${turn}_${i}`,
      name: tool,
      arguments: ARGUMENTS[tool](turn, i),
    })),
    usage: { prompt_tokens: 1, completion_tokens: 1 },
  };
}

/** The tool messages already in the history: how many calls the model has had answered. */
function answeredCalls(request: RecordedRequest): number {
  let answered = 0;
  for (const message of request.body.messages) if (message.role === 'tool') answered++;
  return answered;
}

/** The arguments of each tool a benchmark can call, for call `i` of turn `turn`. */
const ARGUMENTS: Record<string, (turn: number, i: number) => object> = {
  lookup: (turn, i) => ({ key: `k${turn}`, slot: i }),
  // The NestJS sample's calculator.
  calculate: (turn, i) => ({ a: turn, op: 'add', b: i }),
  // The agent of the agent-overhead benchmark.
  research: (turn) => ({ task: `Look things up, part ${turn}.` }),
};

/** `bench-stream-<n>`: n characters of text in 4-character chunks, then a call whose arguments come in n / 4 fragments. */
function streamReply(chars: number): ScriptedReply {
  const args = JSON.stringify({ key: 'y'.repeat(chars) });
  const argumentChunks: string[] = [];
  for (let i = 0; i < args.length; i += 4) argumentChunks.push(args.slice(i, i + 4));
  return {
    text: 'x'.repeat(chars),
    chunkSize: 4,
    toolCalls: [{ id: 'call_s', name: 'lookup', argumentChunks }],
    usage: { prompt_tokens: 1, completion_tokens: 1 },
  };
}

/**
 * A reply paced like a model at 1000 / `delayMs` tokens per second: `deltas` SSE deltas of about one token
 * (4 characters) each. On a tool turn (`turn` is its number) a tenth of them are the `lookup` call's argument
 * fragments, so the client assembles a call as well as text; on the last turn (`turn` null) all are text.
 */
function pacedReply(turn: number | null, deltas: number, delayMs: number): ScriptedReply {
  const usage = { prompt_tokens: 1, completion_tokens: deltas };
  if (turn === null) return { text: 'x'.repeat(deltas * 4), chunkSize: 4, chunkDelayMs: delayMs, usage };
  const fragments = Math.max(1, Math.round(deltas / 10));
  // The key is padded so the arguments are `fragments` pieces of 4 characters, like the text
  // (19 is the length of `{"key":"","slot":0}`).
  const args = JSON.stringify({ key: `k${turn}`.padEnd(Math.max(2, fragments * 4 - 19), 'y'), slot: 0 });
  const size = Math.ceil(args.length / fragments);
  const argumentChunks = Array.from({ length: fragments }, (_, i) => args.slice(i * size, (i + 1) * size));
  return {
    text: 'x'.repeat((deltas - fragments) * 4),
    chunkSize: 4,
    chunkDelayMs: delayMs,
    toolCalls: [{ id: `call_p${turn}`, name: 'lookup', argumentChunks }],
    usage,
  };
}

async function main(): Promise<void> {
  const server = await startScriptedServer();
  const refill = () => server.enqueue(...Array.from({ length: 5000 }, () => reply));
  refill();
  const timer = setInterval(() => {
    if (server.pending() < 2500) refill();
    // The recorded bodies are for tests; a benchmark would only grow memory with them.
    server.requests.length = 0;
  }, 20);
  process.send?.({ baseURL: server.baseURL });
  process.on('disconnect', () => {
    clearInterval(timer);
    void server.close().then(() => process.exit(0));
  });
}

void main();
