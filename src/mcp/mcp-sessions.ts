import type { ServerResponse } from 'node:http';
import type { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** One 2025-era client's session: its transport, its server, and what keeps it from expiring. */
export type McpSession = {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** Responses still open (a call running, an SSE stream); the session is idle only at zero. */
  inflight: number;
  idleTimer?: NodeJS.Timeout;
};

/**
 * The open sessions of one HTTP handler, at most `max` (counting those still initializing), each closed once it
 * has had no response open for `idleMs`.
 *
 * @internal
 */
export class McpSessions {
  private readonly open = new Map<string, McpSession>();
  private opening = 0;

  constructor(
    private readonly max: number,
    private readonly idleMs: number,
  ) {}

  get size(): number {
    return this.open.size;
  }

  get(id: string): McpSession | undefined {
    return this.open.get(id);
  }

  /** Hold a place for a session being initialized; `undefined` when the table is full. */
  reserve(): (() => void) | undefined {
    if (this.open.size + this.opening >= this.max) return undefined;
    this.opening++;
    let released = false;
    return () => {
      if (!released) this.opening--;
      released = true;
    };
  }

  add(id: string, session: McpSession): void {
    this.open.set(id, session);
    if (session.inflight === 0) this.armIdle(session);
  }

  remove(id: string | undefined): void {
    if (id === undefined) return;
    const session = this.open.get(id);
    if (session) clearTimeout(session.idleTimer);
    this.open.delete(id);
  }

  /** `res` belongs to `session`: it is busy until the response closes. */
  track(session: McpSession, res: ServerResponse): void {
    session.inflight++;
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    res.once('close', () => {
      session.inflight--;
      // Only a session still in the table expires: one ended meanwhile (DELETE, close()) has nothing to arm.
      const id = session.transport.sessionId;
      if (session.inflight === 0 && id !== undefined && this.open.get(id) === session) this.armIdle(session);
    });
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.open.values()];
    for (const session of sessions) clearTimeout(session.idleTimer);
    this.open.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }

  private armIdle(session: McpSession): void {
    clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => {
      this.remove(session.transport.sessionId);
      void session.server.close().catch(() => undefined);
    }, this.idleMs);
    // An idle session must not keep the process alive.
    session.idleTimer.unref();
  }
}
