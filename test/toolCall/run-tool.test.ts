import { runTool } from '../../src/toolCall/run-tool';
import type { ToolDefinition, ToolExecuteContext } from '../../src/toolCall/type';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { RunAbortedError, ToolTimeoutError } from '../../src/errors';

const call = (name: string, args = '{"a":1}'): ChatCompletionMessageToolCall => ({
  id: 'call_1',
  type: 'function',
  function: { name, arguments: args },
});

const tool = (
  name: string,
  execute: ToolDefinition['execute'],
  extra: Partial<ToolDefinition> = {},
): ToolDefinition => ({
  schema: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
  execute,
  ...extra,
});

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('runTool', () => {
  it('runs the tool found by name with the parsed params, the call and the messages', async () => {
    let seen: ToolExecuteContext<unknown> | undefined;
    const tools = [
      tool('other', async () => ({ response: 'wrong tool' })),
      tool('echo', async (ctx) => {
        seen = ctx;
        return { response: 'ok', stop: true };
      }),
    ];
    const result = await runTool({ call: call('echo', '{"a": 1, "b": "x"}'), messages, tools });
    expect(result).toEqual({ response: 'ok', stop: true, outcome: 'ok' });
    expect(seen?.params).toEqual({ a: 1, b: 'x' });
    expect(seen?.call.id).toBe('call_1');
    expect(seen?.messages).toBe(messages);
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });

  it('answers an unknown tool name', async () => {
    const result = await runTool({
      call: call('nope'),
      messages,
      tools: [tool('echo', async () => ({ response: 'x' }))],
    });
    expect(result).toEqual({ response: 'Call tool not found: nope', outcome: 'not_found' });
  });

  it('names the closest few tools of the set after an unknown name, and only those', async () => {
    const names = ['translate_text', 'translate_html', 'detect_language', 'get_weather', 'translator_status'];
    const tools = names.map((name) => tool(name, async () => ({ response: 'x' })));
    const result = await runTool({ call: call('translate'), messages, tools });
    expect(result).toEqual({
      response: 'Call tool not found: translate (closest: translate_html, translate_text)',
      outcome: 'not_found',
    });
    const long = await runTool({ call: call(`translate${'x'.repeat(5_000)}`), messages, tools });
    expect(long.response.startsWith(`Call tool not found: translate${'x'.repeat(100)}`)).toBe(true);
    expect(long.response.length).toBeLessThan(500);
  });

  it('returns the parseParams error message and does not execute', async () => {
    const execute = jest.fn(async () => ({ response: 'ran' }));
    const tools = [
      tool('t', execute, { parseParams: () => ({ success: false, errorMessage: 'a: must be a number' }) }),
    ];
    expect(await runTool({ call: call('t'), messages, tools })).toEqual({
      response: 'a: must be a number',
      outcome: 'invalid_arguments',
      error: 'a: must be a number',
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it('passes parseParams data to execute', async () => {
    const tools = [
      tool('t', async ({ params }) => ({ response: `n=${(params as { n: number }).n}` }), {
        parseParams: (raw) => ({ success: true, data: { n: raw.length } }),
      }),
    ];
    expect((await runTool({ call: call('t', 'abcd'), messages, tools })).response).toBe('n=4');
  });

  it('turns a throw into "Tool error: <message>" without the stack', async () => {
    const tools = [
      tool('t', async () => {
        throw new Error('database is down\n    at db.ts:1:1');
      }),
    ];
    expect(await runTool({ call: call('t'), messages, tools })).toMatchObject({
      response: 'Tool error: database is down',
      outcome: 'error',
    });
  });

  it.each([
    ['a string', 'plain string', 'Tool error: plain string'],
    ['a number', 42, 'Tool error: 42'],
    ['undefined', undefined, 'Tool error: Unknown error'],
    ['an object with msg', { msg: 'quota exceeded' }, 'Tool error: quota exceeded'],
  ])('turns a thrown %s into text', async (_label, thrown, expected) => {
    const tools = [tool('t', () => Promise.reject(thrown))];
    expect((await runTool({ call: call('t'), messages, tools })).response).toBe(expected);
  });

  it('survives an error whose message getter throws, and a synchronous throw', async () => {
    const evil = Object.defineProperty({}, 'message', {
      get() {
        throw new Error('boom');
      },
    });
    const tools = [
      tool('a', async () => {
        throw evil;
      }),
      tool('b', () => {
        throw new Error('sync');
      }),
    ];
    expect((await runTool({ call: call('a'), messages, tools })).response).toBe('Tool error: Unknown error');
    expect((await runTool({ call: call('b'), messages, tools })).response).toBe('Tool error: sync');
  });

  it('turns a throwing parseParams into a tool error', async () => {
    const tools = [
      tool('t', async () => ({ response: 'x' }), {
        parseParams: () => {
          throw new TypeError('bad parser');
        },
      }),
    ];
    expect((await runTool({ call: call('t'), messages, tools })).response).toBe('Tool error: bad parser');
  });

  it('times out a slow tool, aborts its signal, and answers the model', async () => {
    let signal: AbortSignal | undefined;
    const tools = [
      tool(
        'slow',
        (ctx) => {
          signal = ctx.signal;
          return new Promise(() => undefined);
        },
        { timeoutMs: 30 },
      ),
    ];
    const result = await runTool({ call: call('slow'), messages, tools });
    expect(result).toMatchObject({ response: 'Tool error: slow timed out after 30 ms', outcome: 'timeout' });
    expect(ToolTimeoutError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({ toolName: 'slow', timeoutMs: 30 });
    expect(signal?.reason).toBe(result.error);
    expect(signal?.aborted).toBe(true);
  });

  it('uses defaultTimeoutMs for tools without their own timeout', async () => {
    const tools = [tool('slow', () => new Promise(() => undefined))];
    expect((await runTool({ call: call('slow'), messages, tools, defaultTimeoutMs: 20 })).response).toBe(
      'Tool error: slow timed out after 20 ms',
    );
  });

  it('answers at once when the run signal aborts, and the tool sees its signal abort', async () => {
    const run = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const tools = [
      tool('long', (ctx) => {
        toolSignal = ctx.signal;
        return new Promise(() => undefined);
      }),
    ];
    const pending = runTool({ call: call('long'), messages, tools, signal: run.signal });
    setTimeout(() => run.abort(new Error('user left')), 10);
    const reason = new Error('user left');
    expect(await pending).toEqual({ response: 'Tool error: long was aborted', outcome: 'aborted', error: reason });
    expect(toolSignal?.aborted).toBe(true);
  });

  it('gives each call a signal of its own; read after an abort or a timeout, it is already aborted with the reason', async () => {
    const run = new AbortController();
    const reads: (() => AbortSignal)[] = [];
    const hang: ToolDefinition['execute'] = (ctx) => {
      reads.push(() => ctx.signal);
      return new Promise(() => undefined);
    };
    const tools = [tool('hang', hang), tool('slow', hang, { timeoutMs: 10 })];
    const timedOut = await runTool({ call: call('slow'), messages, tools, signal: run.signal });
    const pending = runTool({ call: call('hang'), messages, tools, signal: run.signal });
    const reason = new Error('user left');
    setTimeout(() => run.abort(reason), 10);
    await pending;
    const [slow, hung] = reads.map((read) => read());
    expect(slow).not.toBe(run.signal);
    expect(slow.aborted).toBe(true);
    expect(slow.reason).toBe(timedOut.error);
    expect(hung).not.toBe(run.signal);
    expect(hung.aborted).toBe(true);
    expect(hung.reason).toBe(reason);
    expect(reads[1]()).toBe(hung);
  });

  it('does not start a tool when the signal is already aborted', async () => {
    const run = new AbortController();
    run.abort();
    const execute = jest.fn(async () => ({ response: 'ran' }));
    expect(
      (await runTool({ call: call('t'), messages, tools: [tool('t', execute)], signal: run.signal })).response,
    ).toBe('Tool error: t was aborted');
    expect(execute).not.toHaveBeenCalled();
  });

  it('normalises sloppy results from hand-written tools', async () => {
    const tools = [
      tool('u', (async () => undefined) as unknown as ToolDefinition['execute']),
      tool('o', (async () => ({ count: 2 })) as unknown as ToolDefinition['execute']),
      tool('n', (async () => ({ response: 7 })) as unknown as ToolDefinition['execute']),
    ];
    expect(await runTool({ call: call('u'), messages, tools })).toEqual({ response: '', outcome: 'ok' });
    expect(await runTool({ call: call('o'), messages, tools })).toEqual({ response: '{"count":2}', outcome: 'ok' });
    expect(await runTool({ call: call('n'), messages, tools })).toEqual({ response: '7', outcome: 'ok' });
  });

  it('defaults empty arguments to an empty object', async () => {
    let params: unknown;
    const tools = [
      tool('t', async (ctx) => {
        params = ctx.params;
        return { response: '' };
      }),
    ];
    await runTool({ call: call('t', ''), messages, tools });
    expect(params).toEqual({});
  });
  describe('outcome and error', () => {
    it('hands back the raw thrown value, stack included, while the model reads only the safe text', async () => {
      const thrown = new Error('connect to postgres://admin:hunter2@db:5432 failed');
      const result = await runTool({ call: call('t'), messages, tools: [tool('t', () => Promise.reject(thrown))] });
      expect(result.outcome).toBe('error');
      expect(result.error).toBe(thrown);
      expect((result.error as Error).stack).toContain('run-tool.test.ts');
      expect(result.response).not.toContain('hunter2');
    });

    it('tells a successful tool whose text starts with "Tool error:" from a failed one', async () => {
      const tools = [
        tool('lint', async () => ({ response: 'Tool error: none found, the code is clean' })),
        tool('broken', async () => {
          throw new Error('none found, the code is clean');
        }),
      ];
      const ok = await runTool({ call: call('lint'), messages, tools });
      const failed = await runTool({ call: call('broken'), messages, tools });
      expect(ok.response).toBe(failed.response);
      expect([ok.outcome, failed.outcome]).toEqual(['ok', 'error']);
      expect(ok).not.toHaveProperty('error');
    });

    it('reports a parser that throws as invalid_arguments with what it threw', async () => {
      const thrown = new SyntaxError('Unexpected token');
      const tools = [
        tool('t', async () => ({ response: 'x' }), {
          parseParams: () => {
            throw thrown;
          },
        }),
      ];
      expect(await runTool({ call: call('t'), messages, tools })).toEqual({
        response: 'Tool error: Unexpected token',
        outcome: 'invalid_arguments',
        error: thrown,
      });
    });

    it('reports a malformed parse result as invalid_arguments, keeping the value', async () => {
      const tools = [tool('t', async () => ({ response: 'x' }), { parseParams: () => 42 as never })];
      expect(await runTool({ call: call('t'), messages, tools })).toEqual({
        response: 'Invalid arguments for t',
        outcome: 'invalid_arguments',
        error: 42,
      });
    });

    it('names the abort when the signal carries no reason of its own', async () => {
      const signal = { aborted: true, reason: undefined } as unknown as AbortSignal;
      const result = await runTool({
        call: call('t'),
        messages,
        tools: [tool('t', async () => ({ response: '' }))],
        signal,
      });
      expect(result.outcome).toBe('aborted');
      expect(RunAbortedError.isInstance(result.error)).toBe(true);
    });
  });
});

describe('runTool with tools and values that change or fight back', () => {
  it('runs the tool that is in the array now, after one was replaced in place', async () => {
    const tools = [tool('pick', async () => ({ response: 'old' })), tool('other', async () => ({ response: 'x' }))];
    expect((await runTool({ call: call('pick'), messages, tools })).response).toBe('old');
    tools[0] = tool('pick', async () => ({ response: 'new' }));
    expect((await runTool({ call: call('pick'), messages, tools })).response).toBe('new');
    tools[0] = tool('renamed', async () => ({ response: 'renamed' }));
    expect((await runTool({ call: call('pick'), messages, tools })).outcome).toBe('not_found');
    expect((await runTool({ call: call('renamed'), messages, tools })).response).toBe('renamed');
  });

  it('finds a tool whose name was changed on its own schema', async () => {
    const moving = tool('before', async () => ({ response: 'moved' }));
    const tools = [moving];
    expect((await runTool({ call: call('before'), messages, tools })).outcome).toBe('ok');
    moving.schema.function.name = 'after';
    expect((await runTool({ call: call('before'), messages, tools })).outcome).toBe('not_found');
    expect((await runTool({ call: call('after'), messages, tools })).response).toBe('moved');
  });

  const hostile = () =>
    new Proxy(
      {},
      Object.fromEntries(
        (['get', 'has', 'getPrototypeOf', 'ownKeys', 'getOwnPropertyDescriptor'] as const).map((trap) => [
          trap,
          () => {
            throw new Error(`trap ${trap}`);
          },
        ]),
      ),
    );

  it('answers the model when a tool throws a Proxy whose traps throw', async () => {
    const thrown = hostile();
    const tools = [
      tool('evil', async () => {
        throw thrown;
      }),
    ];
    const result = await runTool({ call: call('evil'), messages, tools });
    expect(result).toMatchObject({ response: 'Tool error: Unknown error', outcome: 'error' });
    expect(result.error).toBe(thrown);
  });

  it('answers the model when a tool returns such a Proxy', async () => {
    const tools = [tool('evil', async () => hostile() as never)];
    const result = await runTool({ call: call('evil'), messages, tools });
    expect(result.outcome).toBe('error');
    expect(typeof result.response).toBe('string');
  });
});
