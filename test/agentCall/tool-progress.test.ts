import { runAgentLoop, type ToolProgressEvent } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

describe('onToolProgress', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it("hears each call's ctx.progress reports, with the call, in order", async () => {
    const indexer = fakeTool('index', (ctx) => {
      ctx.progress?.({ progress: 1, total: 2, message: 'first' });
      ctx.progress?.({ progress: 2, total: 2 });
      return { response: 'indexed' };
    });
    server.enqueue({ toolCalls: [{ id: 'c0', name: 'index', arguments: {} }] }, { text: 'done' });
    const heard: ToolProgressEvent[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [indexer],
      onToolProgress: (e) => heard.push(e),
    });
    expect(result.error).toBeUndefined();
    expect(heard.map(({ call, ...rest }) => [call.id, rest])).toEqual([
      ['c0', { progress: 1, total: 2, message: 'first' }],
      ['c0', { progress: 2, total: 2 }],
    ]);
  });

  it('a hook that throws does not break the run', async () => {
    const indexer = fakeTool('index', (ctx) => {
      ctx.progress?.({ progress: 1 });
      return { response: 'indexed' };
    });
    server.enqueue({ toolCalls: [{ id: 'c0', name: 'index', arguments: {} }] }, { text: 'done' });
    const hookErrors: string[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [indexer],
      onToolProgress: () => {
        throw new Error('listener broke');
      },
      onHookError: (e) => hookErrors.push(e.hook),
    });
    expect(result.error).toBeUndefined();
    expect(result.completeMessages.find((m) => m.role === 'tool')?.content).toBe('indexed');
    expect(hookErrors).toEqual(['onToolProgress']);
  });
});
