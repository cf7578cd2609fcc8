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

/** Start a proxy on a free loopback port to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
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
    client.pipe(upstream).pipe(client);
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
