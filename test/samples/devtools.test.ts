import { queueDevtools } from '../../samples/devtools/queue-devtools';
import { watchRuns } from '../../samples/devtools/recorded-runs';
import { startScriptedServer } from '../../src/testing';
import type { RunSummary } from '../../src/devtools';
import { startRedis } from '../helpers/redis';
import { fakeTool } from '../helpers/tools';
import { apiUrl, rawRequest } from '../devtools/helpers';

describe('samples/devtools', () => {
  beforeEach(() => jest.spyOn(console, 'log').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('recorded-runs: the app’s own runs appear on the page', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'hello there' }] });
    const { devtools, ask } = await watchRuns(server.client(), [fakeTool('noop', () => ({ response: '' }))]);
    try {
      expect(await ask('hi')).toBe('hello there');
      const { runs } = JSON.parse((await rawRequest(apiUrl(devtools.url, '/api/runs'))).body) as { runs: RunSummary[] };
      expect(runs).toMatchObject([{ status: 'completed', model: 'gpt-4o-mini', turns: 1 }]);
    } finally {
      await devtools.close();
      await server.close();
    }
  });

  it('queue-devtools: serves the page over a queue on Redis', async () => {
    const redis = await startRedis();
    const devtools = await queueDevtools(`redis://${redis.host}:${redis.port}`);
    try {
      const res = await rawRequest(apiUrl(devtools.url, '/api/runs'));
      expect(res.status).toBe(200);
    } finally {
      await devtools.close();
      await redis.stop();
    }
  });
});
