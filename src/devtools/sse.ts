import type { ServerResponse } from 'node:http';

/** Open server-sent-event streams, each told about changes; a heartbeat keeps proxies and browsers from timing out. */
export class SseHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(heartbeatMs = 15_000) {
    this.heartbeat = setInterval(() => this.broadcastRaw(': ping\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Take `res` as a new stream. */
  add(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write('retry: 1000\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  /** Send one event to every stream. */
  send(event: string, data: unknown): void {
    this.broadcastRaw(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Streams open now. */
  get size(): number {
    return this.clients.size;
  }

  /** End every stream. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private broadcastRaw(text: string): void {
    for (const res of this.clients) res.write(text);
  }
}
