/**
 * Where queued runs keep the remote tasks they started: in the Redis every worker of the queue reaches. A worker that
 * takes over the run of one that died polls the task that one started, instead of starting the work again.
 */
import type { Redis } from 'ioredis';
import type { McpTaskIds } from '../../src/mcp';

/** Longer than a run waits for another worker to take it over; the remote server forgets an ended task sooner. */
const KEEP_SECONDS = 24 * 60 * 60;

/** Each call's task id under a key of the app's own (`<prefix>:mcp-task:<runId>:<callId>`), gone after a day. */
export function redisTaskIds(redis: Redis, prefix: string): McpTaskIds {
  return {
    get: async (key) => (await redis.get(`${prefix}:mcp-task:${key}`)) ?? undefined,
    set: async (key, taskId) => {
      await redis.set(`${prefix}:mcp-task:${key}`, taskId, 'EX', KEEP_SECONDS);
    },
  };
}
