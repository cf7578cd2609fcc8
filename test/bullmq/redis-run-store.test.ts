import { RedisRunStore, runStoreConformance } from '../../src/bullmq';
import { startRedis, type TestRedis } from '../helpers/redis';

let redis: TestRedis;
let stores = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

// Each case gets a store of its own, on a prefix of its own.
runStoreConformance(
  () => new RedisRunStore({ host: redis.host, port: redis.port }, { prefix: `${redis.namespace}:${++stores}` }),
  { describe, it },
);
