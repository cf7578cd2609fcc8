import type { Redis } from 'ioredis';
import type { RunEvent, RunStatus } from './types';

const ENDED: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a run in `status` will never change again. */
export function hasEnded(status: RunStatus | undefined): boolean {
  return status !== undefined && ENDED.has(status);
}

/** An event from its stream entry. */
export function decodeEvent(id: string, fields: string[]): RunEvent {
  let type = '';
  let data = '{}';
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'type') type = fields[i + 1];
    else if (fields[i] === 'data') data = fields[i + 1];
  }
  return { id, type, ...(JSON.parse(data) as object) } as RunEvent;
}

/**
 * Read a run's stream after `after`, blocking for new entries, on a connection of its own (a blocking read
 * holds its connection). Ends after the status event of an ended run, or when `isGone` says the run is gone.
 * The connection is closed when the reader finishes or its consumer stops early.
 */
export async function* readEvents(
  connection: Redis,
  key: string,
  after: string,
  isGone: () => Promise<boolean>,
  blockMs = 5000,
): AsyncGenerator<RunEvent> {
  let last = after;
  try {
    for (;;) {
      const reply = await connection.xread('COUNT', 500, 'BLOCK', blockMs, 'STREAMS', key, last);
      const entries = reply?.[0]?.[1] ?? [];
      if (!entries.length) {
        if (await isGone()) return;
        continue;
      }
      for (const [id, fields] of entries) {
        last = id;
        const event = decodeEvent(id, fields);
        yield event;
        if (event.type === 'status' && hasEnded(event.status)) return;
      }
    }
  } finally {
    connection.disconnect();
  }
}
