import { ToolCallRejectedError, ToolTimeoutError } from '../../src/errors';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { runTool } from '../../src/toolCall/run-tool';
import type { RunToolResult, ToolDefinition } from '../../src/toolCall/type';

const call: ChatCompletionMessageToolCall = {
  id: 'call_1',
  type: 'function',
  function: { name: 'lookup', arguments: '{}' },
};
const messages = [{ role: 'user' as const, content: 'hi' }];

/** A tool whose runs answer in turn from `script`: a value to return, or an error to throw. */
function scripted(script: (string | Error)[], extra: Partial<ToolDefinition> = {}) {
  const keys: (string | undefined)[] = [];
  const tool: ToolDefinition = {
    schema: { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
    execute: async ({ idempotencyKey }) => {
      keys.push(idempotencyKey);
      const next = script[Math.min(keys.length - 1, script.length - 1)];
      if (next instanceof Error) throw next;
      return { response: next };
    },
    idempotent: true,
    ...extra,
  };
  return { tool, keys };
}

/** Flush the promise jobs a settled step queued, without moving the (fake) clock. */
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('runTool: retry', () => {
  afterEach(() => jest.useRealTimers());

  it('waits backoffMs before the second run and twice as long before the third (fake timers)', async () => {
    jest.useFakeTimers();
    const { tool, keys } = scripted([new Error('busy'), new Error('busy'), 'ok'], {
      retry: { attempts: 3, backoffMs: 1_000 },
    });
    let result: RunToolResult | undefined;
    void runTool({ call, messages, tools: [tool], idempotencyKey: 'k' }).then((done) => (result = done));
    await flush();
    expect(keys).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(999);
    expect(keys).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(keys).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1_999);
    expect(keys).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    await flush();
    expect(keys).toEqual(['k', 'k', 'k']);
    expect(result).toMatchObject({ response: 'ok', outcome: 'ok', attempts: 3 });
  });

  it('an abort during the wait ends the call as aborted, without another run', async () => {
    jest.useFakeTimers();
    const { tool, keys } = scripted([new Error('busy'), 'ok'], { retry: { attempts: 3, backoffMs: 5_000 } });
    const controller = new AbortController();
    const pending = runTool({ call, messages, tools: [tool], signal: controller.signal });
    await flush();
    controller.abort();
    const result = await pending;
    expect(keys).toHaveLength(1);
    expect(result).toMatchObject({ outcome: 'aborted', attempts: 1, response: 'Tool error: lookup was aborted' });
    expect((result.attemptErrors as Error[]).map((e) => e.message)).toEqual(['busy']);
  });

  it('runs again after a timeout, each run under its own timeout', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const tool: ToolDefinition = {
      ...scripted([]).tool,
      timeoutMs: 100,
      retry: { attempts: 2 },
      execute: async () => (++runs === 1 ? new Promise(() => undefined) : { response: 'second run' }),
    };
    const pending = runTool({ call, messages, tools: [tool] });
    await jest.advanceTimersByTimeAsync(100);
    const result = await pending;
    expect(result).toMatchObject({ outcome: 'ok', response: 'second run', attempts: 2 });
    expect(result.attemptErrors?.[0]).toBeInstanceOf(ToolTimeoutError);
  });

  it('never runs again a refusal, a non-idempotent tool, or when retryOn throws', async () => {
    const refused = scripted([new ToolCallRejectedError('not allowed')], { retry: { attempts: 3 } });
    expect(await runTool({ call, messages, tools: [refused.tool] })).toMatchObject({ outcome: 'rejected' });
    expect(refused.keys).toHaveLength(1);

    const unsafe = scripted([new Error('boom'), 'ok'], { idempotent: false, retry: { attempts: 3 } });
    expect(await runTool({ call, messages, tools: [unsafe.tool] })).toMatchObject({ outcome: 'error' });
    expect(unsafe.keys).toHaveLength(1);

    const retryOn = () => {
      throw new Error('predicate bug');
    };
    const broken = scripted([new Error('boom'), 'ok'], { retry: { attempts: 3, retryOn } });
    expect(await runTool({ call, messages, tools: [broken.tool] })).toMatchObject({ outcome: 'error', attempts: 1 });
    expect(broken.keys).toHaveLength(1);
  });
});
