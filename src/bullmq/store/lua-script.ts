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
}
