import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

/** A TCP proxy on loopback in front of Redis whose connections a test can cut (a reset, as a dropped link gives). */
export type TcpProxy = {
  host: string;
  port: number;
  /** Reset every connection through the proxy, and refuse new ones until {@link TcpProxy.restore}. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

/**
 * Start a proxy on a free loopback port to `target`. With `delayMs`, what a client sends reaches Redis that much
 * later, in order: a slow Redis, each command answered `delayMs` late.
 */
export async function startTcpProxy(
  target: { host: string; port: number },
  options: { delayMs?: number } = {},
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.resetAndDestroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    upstream.pipe(client);
    const delayMs = options.delayMs ?? 0;
    if (!delayMs) client.pipe(upstream);
    else {
      let sent = Promise.resolve();
      client.on('data', (chunk: Buffer) => {
        const due = Date.now() + delayMs;
        sent = sent
          .then(() => new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()))))
          .then(() => void (upstream.destroyed || upstream.write(chunk)));
      });
      client.on('end', () => void sent.then(() => upstream.end()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    cut: () => {
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore: () => {
      open = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
