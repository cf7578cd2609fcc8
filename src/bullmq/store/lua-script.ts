import { createHash } from 'node:crypto';
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

  async run(redis: RunsClient, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, this.keyCount, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      return redis.eval(this.source, this.keyCount, ...keys, ...args);
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
