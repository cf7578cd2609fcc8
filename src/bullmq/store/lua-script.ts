import { createHash } from 'node:crypto';
import { sendNow } from './coalesced-redis';
import type { RunsClient } from './connections';

/** A Lua script sent by its SHA1 (one round-trip), and in full only when Redis does not know it yet. */
export class LuaScript {
  private readonly sha: string;

  constructor(
    private readonly source: string,
    private readonly keyCount: number,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Run the script. `now`: its command leaves at once, with what the connection held back before it, instead of at
   * the end of the turn (see `CoalescedRedis.sendNow`), for a write its caller waits on.
   */
  async run(redis: RunsClient, keys: string[], args: (string | number)[], now = false): Promise<unknown> {
    try {
      return await sent(redis.evalsha(this.sha, this.keyCount, ...keys, ...args), redis, now);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      return sent(redis.eval(this.source, this.keyCount, ...keys, ...args), redis, now);
    }
  }

  /**
   * Send the script whole, never by its SHA alone: for a write that what is sent right behind it, unawaited, relies on.
   * A SHA that Redis does not know (a new, restarted or flushed Redis) is refused and sent again whole, after
   * whatever followed it on the connection.
   */
  runInOrder(redis: RunsClient, keys: string[], args: (string | number)[]): Promise<unknown> {
    return redis.eval(this.source, this.keyCount, ...keys, ...args);
  }
}

/** `reply`, its command sent at once when `now`. */
function sent<T>(reply: Promise<T>, redis: RunsClient, now: boolean): Promise<T> {
  if (now) sendNow(redis);
  return reply;
}
