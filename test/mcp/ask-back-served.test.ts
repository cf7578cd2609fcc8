import 'reflect-metadata';
import { once } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type ElicitRequest } from '@modelcontextprotocol/client';
import { Ctx, Param, Tool, toolResult, toolsFrom, type ToolExecuteContext } from '../../src';
import { createMcpHttpHandler, type McpHttpHandler } from '../../src/mcp';

const SECRET = 'a-secret-every-instance-shares-0123456789';

class SeatTools {
  readonly removed: string[] = [];

  @Tool({ description: 'Books a seat, asking which one' })
  book(@Param('flight') flight: string, @Ctx() ctx?: ToolExecuteContext) {
    const answer = ctx!.answer;
    if (!answer) {
      return toolResult.interactive({
        type: 'mcp_input',
        message: `Which seat on ${flight}?`,
        requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
      });
    }
    if (answer.action !== 'accept') return `No seat booked on ${flight}`;
    return `Booked ${String(answer.content?.seat)} on ${flight}`;
  }

  @Tool({ description: 'Removes a file', needsApproval: true })
  remove(@Param('path') path: string) {
    this.removed.push(path);
    return `Removed ${path}`;
  }
}

type Instance = { url: URL; handler: McpHttpHandler; http: HttpServer };

/** One server instance: its own handler and HTTP server; the caller is the `x-user` header. */
async function instance(tools: SeatTools, stateSecret: string): Promise<Instance> {
  const handler = createMcpHttpHandler(toolsFrom(tools), {
    name: 'seats',
    version: '1.0.0',
    stateSecret,
    caller: (_auth, req) => (typeof req.headers['x-user'] === 'string' ? { user: req.headers['x-user'] } : undefined),
  });
  const http = createServer((req, res) => void handler(req, res));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return { url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), handler, http };
}

async function stop({ handler, http }: Instance): Promise<void> {
  await handler.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
}

type Answerer = (request: ElicitRequest) => {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string>;
};

async function connect(
  at: Instance,
  { era, user = 'ada', answer }: { era: 'modern' | 'legacy'; user?: string; answer?: Answerer },
) {
  const transport = new StreamableHTTPClientTransport(at.url, { requestInit: { headers: { 'x-user': user } } });
  const client = new Client(
    { name: 'asker', version: '0.0.1' },
    {
      // A client is asked only when it declares elicitation.
      capabilities: { elicitation: { form: {} } },
      ...(era === 'modern' && { versionNegotiation: { mode: 'auto' as const } }),
    },
  );
  if (answer) client.setRequestHandler('elicitation/create', async (request) => answer(request));
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[]).map((c) => c.text).join('');

describe('a served tool asks back: input_required with a signed requestState, or an elicitation request', () => {
  const tools = new SeatTools();
  let a: Instance;
  let b: Instance;
  let stranger: Instance;

  beforeAll(async () => {
    [a, b, stranger] = await Promise.all([
      instance(tools, SECRET),
      instance(tools, SECRET),
      instance(tools, 'another-secret-of-another-deployment-0123'),
    ]);
  });

  afterAll(() => Promise.all([a, b, stranger].map(stop)));

  it('a 2026-07-28 client answers the question through its elicitation handler and the method runs again with ctx.answer', async () => {
    const asked: ElicitRequest['params'][] = [];
    const client = await connect(a, {
      era: 'modern',
      answer: (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { seat: '12A' } };
      },
    });
    const result = await client.callTool({ name: 'book', arguments: { flight: 'LH1' } });
    expect(textOf(result)).toBe('Booked 12A on LH1');
    expect(asked).toEqual([
      expect.objectContaining({
        message: 'Which seat on LH1?',
        requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
      }),
    ]);
    await client.close();
  });

  it('the retry goes to a second instance with the same stateSecret, which finishes the call', async () => {
    const first = await connect(a, { era: 'modern' });
    const asked = await first.request(
      { method: 'tools/call', params: { name: 'book', arguments: { flight: 'LH2' } } },
      { allowInputRequired: true },
    );
    const { requestState, inputRequests } = asked as unknown as {
      requestState: string;
      inputRequests: Record<string, { method: string }>;
    };
    const [key] = Object.keys(inputRequests);
    expect(inputRequests[key].method).toBe('elicitation/create');
    expect(typeof requestState).toBe('string');
    const retry = (user: string, flight = 'LH2', state = requestState) => ({
      method: 'tools/call' as const,
      params: {
        name: 'book',
        arguments: { flight },
        inputResponses: { [key]: { action: 'accept', content: { seat: '7C' } } },
        requestState: state,
      },
    });

    const second = await connect(b, { era: 'modern' });
    expect(textOf(await second.request(retry('ada')))).toBe('Booked 7C on LH2');

    // Bound to the caller, to these arguments, and to the deployment's secret; and tamper-proof.
    const mallory = await connect(b, { era: 'modern', user: 'mallory' });
    await expect(mallory.request(retry('mallory'))).rejects.toThrow(/Invalid or expired requestState/);
    await expect(second.request(retry('ada', 'LH999'))).rejects.toThrow(/requestState belongs to another call/);
    const other = await connect(stranger, { era: 'modern' });
    await expect(other.request(retry('ada'))).rejects.toThrow(/Invalid or expired requestState/);
    const [head, body, mac] = requestState.split('.');
    const forged = `${head}.${body.slice(0, -2)}${body.endsWith('AA') ? 'BB' : 'AA'}.${mac}`;
    await expect(second.request(retry('ada', 'LH2', forged))).rejects.toThrow(/Invalid or expired requestState/);
    await Promise.all([first.close(), second.close(), mallory.close(), other.close()]);
  });

  it('a tool that needs approval asks before it runs: declined, it never runs; accepted, it runs once', async () => {
    const declining = await connect(a, { era: 'modern', answer: () => ({ action: 'decline' }) });
    const no = await declining.callTool({ name: 'remove', arguments: { path: '/tmp/a' } });
    expect(no).toMatchObject({ isError: true });
    expect(textOf(no)).toBe('Tool call rejected by the user');
    expect(tools.removed).toEqual([]);
    const accepting = await connect(a, { era: 'modern', answer: () => ({ action: 'accept', content: {} }) });
    expect(textOf(await accepting.callTool({ name: 'remove', arguments: { path: '/tmp/b' } }))).toBe('Removed /tmp/b');
    expect(tools.removed).toEqual(['/tmp/b']);
    await Promise.all([declining.close(), accepting.close()]);
  });

  it('a stateSecret too short to sign with is refused when the endpoint is made, not on some later request', () => {
    const make = () =>
      createMcpHttpHandler(toolsFrom(tools), { name: 'seats', version: '1.0.0', stateSecret: 'short' });
    expect(make).toThrow(RangeError);
  });

  it('a 2025-11-25 session is asked with an elicitation request, and a cancel reaches the method as ctx.answer', async () => {
    const asked: string[] = [];
    const accepting = await connect(a, {
      era: 'legacy',
      answer: (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { seat: '3F' } };
      },
    });
    expect(textOf(await accepting.callTool({ name: 'book', arguments: { flight: 'LH3' } }))).toBe('Booked 3F on LH3');
    expect(asked).toEqual(['Which seat on LH3?']);
    const cancelling = await connect(a, { era: 'legacy', answer: () => ({ action: 'cancel' }) });
    expect(textOf(await cancelling.callTool({ name: 'book', arguments: { flight: 'LH4' } }))).toBe(
      'No seat booked on LH4',
    );
    await Promise.all([accepting.close(), cancelling.close()]);
  });
});
