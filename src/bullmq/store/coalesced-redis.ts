import { Redis } from 'ioredis';
import type { Cluster, Command, RedisOptions } from 'ioredis';

/**
 * An ioredis client whose commands of one turn of the event loop leave in one write: its socket is corked at the
 * turn's first command and uncorked once the turn's callbacks have run (`setImmediate`), or sooner by
 * {@link CoalescedRedis.sendNow} for a write its caller waits on. Under load, the commands
 * every run of a process sends in a turn share one write, and Redis answers them in one; each write to an idle
 * Redis wakes it, and on a virtual machine the wake costs both sides more than the command (`docs/queue.md`,
 * "Measured cost"). Commands still reach Redis in the order they were sent: a corked socket keeps its writes in order.
 *
 * Its duplicates are coalesced too, and serve blocking reads (BullMQ makes a worker's blocking connection as a
 * duplicate of the one it is given; the store's event readers are duplicates): they get `maxRetriesPerRequest: null`,
 * as BullMQ requires of a blocking connection, whatever the client duplicated has.
 */
export class CoalescedRedis extends Redis {
  /** The socket this turn's commands wait in, corked; a token of its own, so an earlier turn's uncork leaves it. */
  private cork?: { socket: Redis['stream'] };

  constructor(options: RedisOptions) {
    super(options);
    // ioredis reconnects by itself and fails the commands a lost connection took, where their callers see it; an
    // `error` event no one listens to would only print "Unhandled error event" while Redis is away.
    this.on('error', () => undefined);
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    // A command given its own stream is part of the connection's own handshake: it goes out as ioredis sends it.
    if (!this.cork && !stream && this.status === 'ready') {
      const cork = { socket: this.stream };
      cork.socket.cork();
      this.cork = cork;
      setImmediate(() => this.uncork(cork));
    }
    return super.sendCommand(command, stream);
  }

  /**
   * Send the commands held back so far, the last one given included, now rather than at the end of the turn: for a
   * write its caller waits on with nothing else of its own in flight (a claim, a journal write before a tool call
   * runs). Each waits in the turn's write for the rest of the turn's callbacks, and with 8 runs a process, that
   * wait left its event loop idle 3% more than a bare BullMQ queue's (`docs/queue.md`, "Measured cost").
   */
  sendNow(): void {
    if (this.cork) this.uncork(this.cork);
  }

  override duplicate(override?: Partial<RedisOptions>): CoalescedRedis {
    return new CoalescedRedis({ ...this.options, maxRetriesPerRequest: null, ...override });
  }

  private uncork(cork: { socket: Redis['stream'] }): void {
    if (this.cork !== cork) return;
    this.cork = undefined;
    cork.socket.uncork();
  }
}

/** {@link CoalescedRedis.sendNow} for a client of the runs' own; any other client sends each command as it is given. */
export function sendNow(client: Redis | Cluster): void {
  if (client instanceof CoalescedRedis) client.sendNow();
}
