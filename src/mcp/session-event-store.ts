import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * The last messages of one session's SSE streams, so a client that lost a stream reconnects with
 * `Last-Event-ID` and gets what it missed. Holds at most `max` messages (the oldest go first): a client that
 * stays away longer misses the rest, and a busy session cannot grow it without end.
 *
 * @internal
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<EventId, { streamId: StreamId; message: JSONRPCMessage }>();
  private next = 0;

  constructor(private readonly max: number) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}_${this.next++}`;
    this.events.set(id, { streamId, message });
    if (this.events.size > this.max) this.events.delete(this.events.keys().next().value!);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.events.get(lastEventId);
    if (!last) return '';
    let after = false;
    for (const [id, event] of this.events) {
      if (after && event.streamId === last.streamId) await send(id, event.message);
      if (id === lastEventId) after = true;
    }
    return last.streamId;
  }
}
