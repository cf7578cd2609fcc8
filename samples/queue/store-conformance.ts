/**
 * The `RunStore` conformance suite run with `node:test` against the Redis store: `node --test
 * .demo/samples/queue/store-conformance.js` (Redis on REDIS_PORT, default 6379). A store of your own goes where
 * `RedisRunStore` is.
 */
import { describe, it } from 'node:test';
import { RedisRunStore, runStoreConformance } from '../../src/bullmq';

const connection = { host: '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };

runStoreConformance(() => new RedisRunStore(connection, { prefix: 'conformance' }), { describe, it });
