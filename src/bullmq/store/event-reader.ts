import type { RunEventReader } from './run-store';
import type { RunEvent, RunStatus } from '../types';

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
 * Read a run's events after `after`, waiting for new ones, through a reader of its own (a blocking read holds its
 * connection). Ends after the status event of an ended run, or when `isGone` says the run is gone. The reader is
 * closed when this finishes or its consumer stops early.
 */
export async function* readEvents(
  reader: RunEventReader,
  after: string,
  isGone: () => Promise<boolean>,
  blockMs = 5000,
): AsyncGenerator<RunEvent> {
  let last = after;
  try {
    for (;;) {
      const events = await reader.read(last, { blockMs, count: 500 });
      if (!events.length) {
        if (await isGone()) return;
        continue;
      }
      for (const event of events) {
        last = event.id;
        yield event;
        if (event.type === 'status' && hasEnded(event.status)) return;
      }
    }
  } finally {
    reader.close();
  }
}
