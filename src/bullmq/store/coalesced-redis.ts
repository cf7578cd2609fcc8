import { Redis } from 'ioredis';
import type { Command, RedisOptions } from 'ioredis';

/**
 * An ioredis client whose commands of one turn of the event loop leave in one write: its socket is corked at the
 * turn's first command and uncorked once the turn's callbacks have run (`setImmediate`). Under load, the commands
 * every run of a process sends in a turn share one write, and Redis answers them in one; each write to an idle
 * Redis wakes it, and on a virtual machine the wake costs both sides more than the command (`docs/queue.md`,
 * "Measured cost"). Commands still reach Redis in the order they were sent: a corked socket keeps its writes in order.
 *
 * Its duplicates are coalesced too, and serve blocking reads (BullMQ makes a worker's blocking connection as a
 * duplicate of the one it is given; the store's event readers are duplicates): they get `maxRetriesPerRequest: null`,
 * as BullMQ requires of a blocking connection, whatever the client duplicated has.
 */
export class CoalescedRedis extends Redis {
  private corked = false;

  constructor(options: RedisOptions) {
    super(options);
    // ioredis reconnects by itself and fails the commands a lost connection took, where their callers see it; an
    // `error` event no one listens to would only print "Unhandled error event" while Redis is away.
    this.on('error', () => undefined);
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    // A command given its own stream is part of the connection's own handshake: it goes out as ioredis sends it.
    if (!this.corked && !stream && this.status === 'ready') {
      const socket = this.stream;
      socket.cork();
      this.corked = true;
      setImmediate(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    return super.sendCommand(command, stream);
  }

  override duplicate(override?: Partial<RedisOptions>): CoalescedRedis {
    return new CoalescedRedis({ ...this.options, maxRetriesPerRequest: null, ...override });
  }
}
