import { ToolCallAccumulator } from '../../src/llm/response/tool-call-accumulator';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';

describe('ToolCallAccumulator', () => {
  it('assembles interleaved deltas by index', () => {
    const acc = new ToolCallAccumulator({});
    acc.push([{ index: 0, id: 'a', type: 'function', function: { name: 'x', arguments: '{"a"' } }]);
    acc.push([{ index: 1, id: 'b', type: 'function', function: { name: 'y', arguments: '' } }]);
    acc.push([
      { index: 0, function: { arguments: ':1}' } },
      { index: 1, function: { arguments: '{}' } },
    ]);
    expect(acc.finish().map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ['a', 'x', '{"a":1}'],
      ['b', 'y', '{}'],
    ]);
  });

  it('tells apart calls that all arrive at index 0 by their ids', () => {
    const calls: string[] = [];
    const acc = new ToolCallAccumulator({ onToolCall: ({ call }) => calls.push(call.id) });
    acc.push([{ index: 0, id: 'first', function: { name: 'x', arguments: '{"n":1}' } }]);
    acc.push([{ index: 0, id: 'second', function: { name: 'x', arguments: '{"n":2}' } }]);
    acc.push([{ index: 0, function: { arguments: '' } }]);
    expect(calls).toEqual(['first', 'second']);
    expect(acc.finish().map((c) => c.function.arguments)).toEqual(['{"n":1}', '{"n":2}']);
  });

  it('names a call from a later delta, but never doubles a repeated name', () => {
    const acc = new ToolCallAccumulator({});
    acc.push([{ index: 0, id: 'a' }]);
    acc.push([{ index: 0, function: { name: 'late_name' } }]);
    acc.push([{ index: 1, id: 'b', function: { name: 'same', arguments: '{' } }]);
    acc.push([{ index: 1, function: { name: 'same', arguments: '}' } }]);
    expect(acc.finish().map((c) => c.function.name)).toEqual(['late_name', 'same']);
  });

  it('gives a call without an id a generated one, and makes a repeated id unique', () => {
    const acc = new ToolCallAccumulator({});
    acc.push([
      { index: 0, function: { name: 'x' } },
      { index: 1, id: 'dup', function: { name: 'y' } },
      { index: 2, id: 'dup', function: { name: 'z' } },
    ]);
    const ids = acc.finish().map((c: ChatCompletionMessageToolCall) => c.id);
    expect(ids[0]).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(ids[1]).toBe('dup');
    expect(ids[2]).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it('settles ids before the first hook: a taken or repeated id is replaced when the call is first seen', () => {
    const seen: string[] = [];
    const acc = new ToolCallAccumulator(
      {
        onToolCall: ({ call }) => seen.push(`call ${call.id}`),
        onToolParam: ({ call, argsDelta }) => seen.push(`param ${call.id} ${argsDelta}`),
      },
      new Set(['x']),
    );
    acc.push([{ index: 0, id: 'x', function: { name: 'a', arguments: '{"n":' } }]);
    acc.push([{ index: 0, id: 'x', function: { arguments: '1}' } }]);
    acc.push([{ index: 1, id: 'y', function: { name: 'b', arguments: '{}' } }]);
    const [first, second] = acc.finish();
    expect(first.id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(first.function.arguments).toBe('{"n":1}');
    expect(second.id).toBe('y');
    expect(seen).toEqual([
      `call ${first.id}`,
      `param ${first.id} {"n":`,
      `param ${first.id} 1}`,
      'call y',
      'param y {}',
    ]);
  });

  it('reports a throwing hook to onHookError and keeps assembling', async () => {
    const reported: string[] = [];
    const acc = new ToolCallAccumulator({
      onToolCall: () => {
        throw new Error('ui gone');
      },
      onToolParam: () => {
        throw new Error('late ui');
      },
      onHookError: ({ hook, error }) => reported.push(`${hook}: ${(error as Error).message}`),
    });
    acc.push([{ index: 0, id: 'a', function: { name: 'x', arguments: '{}' } }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(acc.finish()).toEqual([{ id: 'a', type: 'function', function: { name: 'x', arguments: '{}' } }]);
    expect(reported).toEqual(['onToolCall: ui gone', 'onToolParam: late ui']);
  });

  describe('deltas without index (Gemini, Ollama before 0.4.7)', () => {
    // The SDK's type says index is a number; these servers send none, or null.
    type Delta = Parameters<ToolCallAccumulator['push']>[0][number];
    const noIndex = (delta: Omit<Delta, 'index'> & { index?: null }) => delta as unknown as Delta;

    it('continues the call with the same id, opens a new one for a new id', () => {
      const acc = new ToolCallAccumulator({});
      acc.push([noIndex({ id: 'a', function: { name: 'x', arguments: '{"n":' } })]);
      acc.push([noIndex({ id: 'a', function: { arguments: '1}' } })]);
      acc.push([noIndex({ id: 'b', index: null, function: { name: 'x', arguments: '{"n":2}' } })]);
      expect(acc.finish().map((c) => [c.id, c.function.arguments])).toEqual([
        ['a', '{"n":1}'],
        ['b', '{"n":2}'],
      ]);
    });

    it('without ids: a name after begun arguments opens a call, a bare fragment continues the last one', () => {
      const acc = new ToolCallAccumulator({});
      acc.push([noIndex({ id: '', function: { name: 'x' } })]);
      acc.push([noIndex({ function: { name: 'x', arguments: '{"n":' } })]);
      acc.push([noIndex({ function: { arguments: '1}' } })]);
      acc.push([noIndex({ id: '', function: { name: 'y', arguments: '{}' } })]);
      const calls = acc.finish();
      expect(calls.map((c) => [c.function.name, c.function.arguments])).toEqual([
        ['x', '{"n":1}'],
        ['y', '{}'],
      ]);
      expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    });

    it('entries of one delta are different calls, even with no arguments and no ids', () => {
      const acc = new ToolCallAccumulator({});
      acc.push([noIndex({ function: { name: 'x' } }), noIndex({ function: { name: 'y' } })]);
      expect(acc.finish().map((c) => [c.function.name, c.function.arguments])).toEqual([
        ['x', '{}'],
        ['y', '{}'],
      ]);
    });
  });

  it('serialises arguments sent as an object instead of JSON text', () => {
    const params: string[] = [];
    const acc = new ToolCallAccumulator({ onToolParam: ({ argsDelta }) => params.push(argsDelta) });
    const objectArgs = { city: 'Paris' } as unknown as string;
    acc.push([{ index: 0, id: 'a', function: { name: 'get_weather', arguments: objectArgs } }]);
    expect(acc.finish()[0].function.arguments).toBe('{"city":"Paris"}');
    expect(params).toEqual(['{"city":"Paris"}']);
  });

  it("keeps a provider's fields on the call, merging a later delta's, and never touches a prototype", () => {
    const acc = new ToolCallAccumulator({});
    const withFields = (delta: object) => delta as Parameters<ToolCallAccumulator['push']>[0][number];
    acc.push([
      withFields({ index: 0, id: 'a', function: { name: 'x', arguments: '{}' }, extra_content: { google: {} } }),
    ]);
    acc.push([
      withFields({
        index: 0,
        extra_content: { google: { thought_signature: 'sig' } },
        ...JSON.parse('{"__proto__": {"polluted": true}}'),
      }),
    ]);
    const [call] = acc.finish();
    expect(call).toEqual({
      id: 'a',
      type: 'function',
      function: { name: 'x', arguments: '{}' },
      extra_content: { google: { thought_signature: 'sig' } },
    });
    expect(Object.getPrototypeOf(call)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
