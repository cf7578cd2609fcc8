import 'reflect-metadata';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Resource, Tool, toolsFrom } from '../../src';
import { createMcpHttpHandler, createMcpServer, resourcesFrom, ResourceUpdates } from '../../src/mcp';

class Pages {
  @Resource({ uri: 'docs://readme' })
  readme(): string {
    return '# Hello';
  }

  @Resource({ uriTemplate: 'docs://pages/{slug}' })
  page({ slug }: { slug: string }): string {
    return `page ${slug}`;
  }
}

class Noop {
  @Tool({ description: 'Nothing' })
  noop(): string {
    return 'ok';
  }
}

/** A client of its own server (as each session gets), recording the resource updates it hears. */
async function subscriber(updates: ResourceUpdates) {
  const server = createMcpServer(toolsFrom(new Noop()), {
    name: 'docs',
    version: '1.0.0',
    resources: resourcesFrom(new Pages()),
    resourceUpdates: updates,
  });
  const client = new Client({ name: 'test', version: '0.0.1' });
  const heard: string[] = [];
  let onHeard = () => {};
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.push(notification.params.uri);
    onHeard();
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    heard,
    next: () => new Promise<void>((resolve) => (onHeard = resolve)),
    close: () => Promise.all([client.close(), server.close()]),
  };
}

describe('ResourceUpdates: notifications/resources/updated for subscribed clients', () => {
  it('reaches the clients subscribed to the changed URI, and only them', async () => {
    const updates = new ResourceUpdates();
    const [a, b] = [await subscriber(updates), await subscriber(updates)];
    await a.client.subscribeResource({ uri: 'docs://readme' });
    await b.client.subscribeResource({ uri: 'docs://pages/intro' });
    const heard = a.next();
    updates.updated('docs://readme');
    await heard;
    // A round trip on b's connection: a notification sent to it before this answer would have arrived first.
    await b.client.ping();
    expect(a.heard).toEqual(['docs://readme']);
    expect(b.heard).toEqual([]);

    const templated = b.next();
    updates.updated('docs://pages/intro');
    await templated;
    expect(b.heard).toEqual(['docs://pages/intro']);
    await Promise.all([a.close(), b.close()]);
  });

  it('stops after unsubscribe and when the connection closes, keeping no listener', async () => {
    const updates = new ResourceUpdates();
    const a = await subscriber(updates);
    await a.client.subscribeResource({ uri: 'docs://readme' });
    expect(updates.listenerCount).toBe(1);
    await a.client.unsubscribeResource({ uri: 'docs://readme' });
    expect(updates.listenerCount).toBe(0);
    updates.updated('docs://readme');
    await a.client.ping();
    expect(a.heard).toEqual([]);

    await a.client.subscribeResource({ uri: 'docs://readme' });
    expect(updates.listenerCount).toBe(1);
    await a.close();
    expect(updates.listenerCount).toBe(0);
  });

  it('refuses a subscription to a URI no resource serves', async () => {
    const a = await subscriber(new ResourceUpdates());
    await expect(a.client.subscribeResource({ uri: 'docs://nothing' })).rejects.toThrow(/Resource not found/);
    await a.close();
  });
});

describe('pollAfterMs: a long call of a 2025-era session is finished over a reconnected stream', () => {
  it("closes the call's SSE stream; the SDK client reconnects with Last-Event-ID and gets the result", async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    class Slow {
      @Tool({ description: 'Runs until released' })
      async slow(): Promise<string> {
        await released;
        return 'done at last';
      }
    }
    const handler = createMcpHttpHandler(toolsFrom(new Slow()), {
      name: 'slow',
      version: '1.0.0',
      allowAnonymous: true,
      pollAfterMs: 20,
    });
    const http = createServer((req, res) => void handler(req, res)).listen(0, '127.0.0.1');
    await once(http, 'listening');
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    const resumed: string[] = [];
    let onResumed = () => {};
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: async (input, init) => {
        const lastEventId = new Headers(init?.headers).get('last-event-id');
        if (init?.method === 'GET' && lastEventId) {
          resumed.push(lastEventId);
          onResumed();
        }
        return fetch(input, init);
      },
    });
    const client = new Client({ name: 'poller', version: '0.0.1' });
    await client.connect(transport);
    try {
      const reconnected = new Promise<void>((resolve) => (onResumed = resolve));
      const call = client.callTool({ name: 'slow', arguments: {} });
      // The result is only made once the client came back for it: it can arrive on the new stream alone.
      await reconnected;
      release();
      expect((await call).content).toEqual([{ type: 'text', text: 'done at last' }]);
      expect(resumed).toHaveLength(1);
    } finally {
      release();
      await client.close();
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  }, 30_000);
});
