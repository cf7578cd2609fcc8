/**
 * Question: how many trivial `tools/call` requests does agentcall's MCP HTTP server answer per second of its own CPU,
 * next to a minimal server written with the bare SDK v2? Each server runs in a process of its own (the load
 * generator's CPU is not counted); an SDK v2 client of the 2026-07-28 era (stateless: the bare SDK builds a server
 * per request, agentcall answers a plain call without one) sends the calls, 8 at a time, over keep-alive
 * connections.
 * Budget (DESIGN §22): agentcall answers ≥ 1.5× the requests per CPU-second of the bare SDK server.
 * For comparison, a published third-party figure for the Node SDK v1: 559 requests/s at 10.7 ms on one vCPU.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { inParallel, median, report } from './lib/harness';

const CALLS = 2_000;
const PARALLEL = 8;
const ROUNDS = 7;

type Side = { child: ChildProcess; client: Client; cpu: () => Promise<number> };

async function start(variant: 'agentcall' | 'sdk'): Promise<Side> {
  const child = fork(join(__dirname, 'lib', 'mcp-http-server.js'), [variant], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [{ port }] = (await once(child, 'message')) as [{ port: number }];
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  if (client.getProtocolEra() !== 'modern') throw new Error(`${variant}: not served in the 2026-07-28 era`);
  const cpu = async () => {
    child.send('cpu');
    const [{ cpu: used }] = (await once(child, 'message')) as [{ cpu: NodeJS.CpuUsage }];
    return used.user + used.system;
  };
  return { child, client, cpu };
}

/** Requests per CPU-second of the server for `CALLS` calls. */
async function measure(side: Side): Promise<number> {
  const before = await side.cpu();
  await inParallel(CALLS, PARALLEL, async () => {
    const result = await side.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    const first = result.content[0];
    if (result.isError || first?.type !== 'text' || first.text !== '5') throw new Error('wrong answer');
  });
  return (CALLS / ((await side.cpu()) - before)) * 1e6;
}

export async function mcpHttpCall(): Promise<void> {
  const sides = { agentcall: await start('agentcall'), sdk: await start('sdk') };
  try {
    // Warm both (JIT, connections) before measuring; then alternate, so drift in the machine's load hits both.
    await measure(sides.agentcall);
    await measure(sides.sdk);
    const rates: Record<keyof typeof sides, number[]> = { agentcall: [], sdk: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rates.agentcall.push(await measure(sides.agentcall));
      rates.sdk.push(await measure(sides.sdk));
    }
    console.log(
      `MCP HTTP, trivial tools/call (2026-07-28, stateless): ${CALLS} calls, ${PARALLEL} at a time, median of ${ROUNDS}`,
    );
    const sdk = median(rates.sdk);
    report('bare SDK v2 (McpServer + createMcpHandler)', sdk, 'req/CPU-s');
    report('agentcall createMcpHttpHandler', median(rates.agentcall), 'req/CPU-s', sdk);
  } finally {
    for (const side of Object.values(sides)) {
      await side.client.close();
      side.child.disconnect();
    }
  }
}

if (require.main === module) void mcpHttpCall();
