import 'reflect-metadata';
import { Ctx } from '../../src/decorators/ctx.decorator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import { runAgentLoop } from '../../src/run-agent-loop';
import { runTool } from '../../src/toolCall/run-tool';
import type { ToolExecuteContext } from '../../src/toolCall/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

type Caller = { userId: string; token: string };

class AccountTools {
  readonly seen: unknown[] = [];

  @Tool({ description: 'Who am I' })
  whoami(@Param('verbose', { optional: true }) verbose: boolean, @Ctx() ctx: ToolExecuteContext): string {
    this.seen.push(ctx.caller);
    const caller = ctx.caller as Caller;
    return verbose ? `user ${caller.userId}` : caller.userId;
  }
}

describe('caller', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('reaches every tool of every turn as ctx.caller (decorated and hand-written) and never the model', async () => {
    const caller: Caller = { userId: 'u-7', token: 'secret-caller-token-91f2' };
    const account = new AccountTools();
    const echo = fakeTool('echo', () => ({ response: 'ok' }));
    server.enqueue(
      {
        toolCalls: [
          { id: 'a', name: 'whoami', arguments: { verbose: true } },
          { id: 'b', name: 'echo', arguments: {} },
        ],
      },
      { toolCalls: [{ id: 'c', name: 'whoami', arguments: {} }] },
      { text: 'done' },
    );
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('who am I?')] },
      tools: [...toolsFrom(account), echo],
      toolConcurrency: 2,
      caller,
    });

    expect(result.stopReason).toBe('completed');
    expect(account.seen).toEqual([caller, caller]);
    expect(account.seen[0]).toBe(caller);
    expect(echo.calls.map((c) => c.caller)).toEqual([caller]);
    const tools = server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['user u-7', 'ok']);
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain(caller.token);
  });

  it('is undefined when the run names no caller', async () => {
    server.enqueue({ toolCalls: [{ id: 'a', name: 'echo', arguments: {} }] }, { text: 'done' });
    const echo = fakeTool('echo', () => ({ response: 'ok' }));
    await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('hi')] }, tools: [echo] });
    expect(echo.calls).toHaveLength(1);
    expect(echo.calls[0].caller).toBeUndefined();
  });

  it('reaches the tool through runTool, with or without a timeout', async () => {
    const echo = fakeTool('echo', ({ caller }) => ({ response: String((caller as Caller).userId) }));
    const call = { id: 'x', type: 'function' as const, function: { name: 'echo', arguments: '{}' } };
    const caller = { userId: 'u-1' };
    expect((await runTool({ call, messages: [], tools: [echo], caller })).response).toBe('u-1');
    expect((await runTool({ call, messages: [], tools: [echo], caller, defaultTimeoutMs: 1000 })).response).toBe('u-1');
  });
});
