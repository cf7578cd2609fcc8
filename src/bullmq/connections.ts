import { Redis } from 'ioredis';
import type { RunsConnection } from './types';

/** A new client of our own for `connection`: a duplicate of a client, or one built from options. */
export function openConnection(connection: RunsConnection, overrides: { maxRetriesPerRequest?: null } = {}): Redis {
  if (connection instanceof Redis) return connection.duplicate(overrides);
  return new Redis({ ...connection, ...overrides });
}
