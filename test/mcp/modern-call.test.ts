import 'reflect-metadata';
import { Ctx, Param, Tool, toolsFrom, type ToolExecuteContext } from '../../src';
import { createMcpHttpHandler } from '../../src/mcp';
import { listenMcp, type ListeningMcp } from '../helpers/mcp-http';

class Tools {
  readonly aborted: string[] = [];
  entered?: () => void;

  @Tool({ description: 'Adds two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): string {
    return String(a + b);
  }

  @Tool({ description: 'Waits until the request is cancelled' })
  async wait(@Param('label') label: string, @Ctx() ctx?: ToolExecuteContext): Promise<string> {
    await new Promise<void>((resolve) => {
      ctx!.signal.addEventListener('abort', () => {
        this.aborted.push(label);
        resolve();
      });
      this.entered?.();
    });
    return 'cancelled';
  }
}

type Served = ListeningMcp & { tools: Tools };

async function serve(): Promise<Served> {
  const tools = new Tools();
  const handler = createMcpHttpHandler(toolsFrom(tools), {
    name: 'calc',
    version: '2.0.0',
    allowAnonymous: true,
  });
  return { ...(await listenMcp(handler)), tools };
}

/** A 2026-07-28 `tools/call` as the SDK v2 client sends it. */
function call(at: Served, id: number, name: string, args: object, signal?: AbortSignal) {
  return fetch(at.url, {
    method: 'POST',
    signal,
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0.0.1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
      jsonrpc: '2.0',
      id,
    }),
  });
}

describe('a plain 2026-07-28 tools/call over HTTP', () => {
  let at: Served;
  beforeEach(async () => (at = await serve()));
  afterEach(() => at.stop());

  it('is answered with the JSON the SDK sends: the result, resultType and the server identity', async () => {
    const response = await call(at, 7, 'add', { a: 2, b: 3 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      result: {
        content: [{ type: 'text', text: '5' }],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'calc', version: '2.0.0' } },
      },
      jsonrpc: '2.0',
      id: 7,
    });
  });

  it('invalid arguments are a tool error the model can read, and an unknown tool a protocol error', async () => {
    const invalid = (await (await call(at, 1, 'add', { a: 'two' })).json()) as { result: { isError: boolean } };
    expect(invalid.result.isError).toBe(true);
    const unknown = (await (await call(at, 2, 'nope', {})).json()) as { error: { code: number; message: string } };
    expect(unknown.error).toMatchObject({ code: -32602, message: 'Call tool not found: nope' });
  });

  it("a client that goes away aborts the tool's signal", async () => {
    const entered = new Promise<void>((resolve) => (at.tools.entered = resolve));
    const controller = new AbortController();
    const pending = call(at, 3, 'wait', { label: 'w1' }, controller.signal).catch(() => undefined);
    await entered;
    controller.abort();
    await pending;
    while (at.tools.aborted.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(at.tools.aborted).toEqual(['w1']);
  });
});
