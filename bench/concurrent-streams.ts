/**
 * Question: how many streaming runs can one core serve? N concurrent runs whose model streams at a realistic
 * rate (one SSE event of about one token every 10 ms, i.e. 100 tokens/s, a few hundred deltas per reply, a tool
 * call between the two replies), at 50 and 150 concurrent streams. The client's CPU per delta (this process
 * only: the model is a child process) and the streams one core could keep up, for the floor (a hand-written
 * loop over the bare openai SDK), agentcall with `streamParser: 'sdk'` and agentcall with the lean parser.
 * Two transport-only readers (bytes read, nothing parsed) show what the HTTP client itself costs per read.
 * Budget (DESIGN §8): the lean path measurably cheaper per delta than the SDK path.
 */
import { request as httpRequest, Agent } from 'node:http';
import { runAgentLoop } from '../src/run-agent-loop';
import type { StreamParser } from '../src/llm/request';
import { compare, concurrently, cpuMicros, report, startBenchServer } from './lib/harness';
import { floorLoop } from './lib/floor-loop';
import { lookupDefinition, lookupSchema, lookupText } from './lib/lookup-tool';

const DELTAS = 200; // per reply; a reply lasts about DELTAS × DELAY_MS
const DELAY_MS = 10; // 100 deltas per second per stream
const TOOL_TURNS = 1; // a tool call, then the answer: two streamed replies per run
const LEVELS = [50, 150];
const TRANSPORT_LEVEL = 150;
const ROUNDS = 3; // a round is one run of each variant, ~4 s each: the whole script stays near two minutes

/** One run of a variant: its replies from `model`; `i` tells the concurrent runs apart. */
type Run = (model: string, i: number) => Promise<void>;

export async function concurrentStreams(): Promise<void> {
  const server = await startBenchServer();
  const tools = [lookupDefinition(64)];
  const url = `${server.client.baseURL}/chat/completions`;

  const floorRun = async (model: string) => {
    const history = await floorLoop({
      client: server.client,
      model,
      tools: [lookupSchema],
      maxTurns: TOOL_TURNS + 1,
      run: (_n, args) => lookupText(String(args.key), 64),
    });
    if (history.length !== 2 * TOOL_TURNS + 2) throw new Error('floor run did not complete');
  };
  const agentRun = (streamParser: StreamParser) => async (model: string, i: number) => {
    const result = await runAgentLoop({
      client: server.client,
      body: { model, messages: [{ role: 'user', content: `Look things up, run ${i}.` }] },
      tools,
      streamParser,
      maxRunAgentTimes: TOOL_TURNS + 2,
      maxConsecutiveToolTurns: 0,
    });
    if (result.stopReason !== 'completed') throw new Error(`agentcall run ended with ${result.stopReason}`);
  };
  /** A run's replies read as bytes only: the first one asks for the tool call, the second for the answer. */
  const rawRun = (read: (url: string, body: string) => Promise<number>) => async (model: string) => {
    const first = [{ role: 'user', content: 'Look things up.' }];
    const second = [...first, { role: 'tool', tool_call_id: 'call_p0', content: 'k0:' }];
    for (const messages of [first, second]) {
      if ((await read(url, JSON.stringify({ model, messages, stream: true }))) === 0) throw new Error('empty stream');
    }
  };
  const libraries = { floor: floorRun, sdk: agentRun('sdk'), lean: agentRun('lean') };
  const transports = { fetchBytes: rawRun(fetchBody), httpBytes: rawRun(httpBody) };
  /** Each run as one measurement: `streams` of it at once, the CPU they took. */
  const variants = <K extends string>(runs: Record<K, Run>, model: string, streams: number) =>
    Object.fromEntries(
      Object.entries<Run>(runs).map(([name, run]) => [
        name,
        () => cpuMicros(() => concurrently(streams, (i) => run(model, i))),
      ]),
    ) as Record<K, () => Promise<number>>;

  try {
    // Warm every path (JIT, a socket per stream of the largest level) on short, fast replies before measuring.
    await compare(variants({ ...libraries, ...transports }, `bench-paced-${TOOL_TURNS}-20-1`, TRANSPORT_LEVEL), 1);
    console.log(
      `concurrent streams: ${DELTAS} deltas per reply, one every ${DELAY_MS} ms, ${TOOL_TURNS + 1} replies per run ` +
        `with a tool call between, median of ${ROUNDS}, client CPU per delta`,
    );
    const model = `bench-paced-${TOOL_TURNS}-${DELTAS}-${DELAY_MS}`;
    for (const streams of LEVELS) {
      const started = performance.now();
      // The transport readers only at one level: they explain the rest, and each variant adds ~15 s.
      const runs: Record<string, Run> = streams === TRANSPORT_LEVEL ? { ...libraries, ...transports } : libraries;
      const r = (await compare(variants(runs, model, streams), ROUNDS)) as Record<keyof typeof libraries, number> &
        Partial<Record<keyof typeof transports, number>>;
      const round = (performance.now() - started) / ROUNDS / Object.keys(runs).length;
      const deltas = streams * DELTAS * (TOOL_TURNS + 1);
      const perDelta = (cpu: number) => (cpu / deltas) * 1000; // ns
      // A stream is 1000 / DELAY_MS deltas per second, so one core keeps up 1 s / (CPU per delta × that rate).
      const perCore = (cpu: number) => 1e9 / (perDelta(cpu) * (1000 / DELAY_MS));
      console.log(`  ${streams} concurrent streams (${(round / 1000).toFixed(1)} s per variant and round)`);
      report('floor (bare openai SDK loop)', perDelta(r.floor), 'ns');
      report("agentcall, streamParser: 'sdk'", perDelta(r.sdk), 'ns', perDelta(r.floor));
      report('agentcall, lean parser', perDelta(r.lean), 'ns', perDelta(r.floor));
      report("agentcall lean / agentcall 'sdk'", perDelta(r.lean) / perDelta(r.sdk), '×');
      if (r.fetchBytes !== undefined && r.httpBytes !== undefined) {
        report('transport only: fetch body reader', perDelta(r.fetchBytes), 'ns', perDelta(r.floor));
        report('transport only: node:http', perDelta(r.httpBytes), 'ns', perDelta(r.floor));
      }
      report('streams per core: floor', perCore(r.floor), '');
      report("streams per core: agentcall 'sdk'", perCore(r.sdk), '');
      report('streams per core: agentcall lean', perCore(r.lean), '');
    }
  } finally {
    server.stop();
  }
}

/** Read a streamed reply through Node's fetch and its web-stream reader; the byte count. */
async function fetchBody(url: string, body: string): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const reader = response.body!.getReader();
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
  return bytes;
}

const agent = new Agent({ keepAlive: true });

/** Read a streamed reply through node:http's response events; the byte count. */
function httpBody(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

if (require.main === module) void concurrentStreams();
