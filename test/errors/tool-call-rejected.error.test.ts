import { AgentcallError, ToolCallRejectedError } from '../../src';
import { runTool } from '../../src/toolCall/run-tool';
import { fakeTool } from '../helpers/tools';

const call = { id: 'c1', type: 'function' as const, function: { name: 'delete_user', arguments: '{}' } };

describe('ToolCallRejectedError', () => {
  it('is a named agentcall error with a default message', () => {
    const error = new ToolCallRejectedError();
    expect(error.message).toBe('Tool call not allowed');
    expect(error.name).toBe('ToolCallRejectedError');
    expect(ToolCallRejectedError.isInstance(error)).toBe(true);
    expect(AgentcallError.isInstance(error)).toBe(true);
  });

  it('answers the call as rejected: its message without the error prefix, the raw error kept', async () => {
    const thrown = new ToolCallRejectedError('Tool call not allowed: only admins may delete users');
    const tool = fakeTool('delete_user', () => {
      throw thrown;
    });
    const result = await runTool({ call, messages: [], tools: [tool] });
    expect(result).toEqual({
      response: 'Tool call not allowed: only admins may delete users',
      outcome: 'rejected',
      error: thrown,
    });
  });

  it('masks secrets and drops anything past the first line, like any error text', async () => {
    const tool = fakeTool('delete_user', async () => {
      throw new ToolCallRejectedError('Not allowed for token=abc123secret\n    at guard (/srv/app/guard.js:1:1)');
    });
    const result = await runTool({ call, messages: [], tools: [tool], defaultTimeoutMs: 1000 });
    expect(result.outcome).toBe('rejected');
    expect(result.response).toBe('Not allowed for token=[redacted]');
  });

  it('leaves other errors as tool errors', async () => {
    const tool = fakeTool('delete_user', () => {
      throw new Error('Not allowed');
    });
    expect(await runTool({ call, messages: [], tools: [tool] })).toMatchObject({
      response: 'Tool error: Not allowed',
      outcome: 'error',
    });
  });
});
