import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { CoalescedRedis } from './coalesced-redis';
import type { RunsConnection } from '../types';

/**
 * A new client of our own for `connection`, built from its options (a client given is left as it is), whose
 * commands of one turn of the event loop leave in one write ({@link CoalescedRedis}).
 */
export function openConnection(connection: RunsConnection, overrides: Partial<RedisOptions> = {}): Redis {
  const options = connection instanceof Redis ? connection.options : connection;
  return new CoalescedRedis({ ...options, ...overrides });
}
