import { ToolCallAccumulator } from '../../src/llm/tool-call-accumulator';
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
        onToolParam: ({ call, tool, argsDelta }) => seen.push(`param ${call.id} ${argsDelta} ${tool === call}`),
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
      `param ${first.id} {"n": true`,
      `param ${first.id} 1} true`,
      'call y',
      'param y {} true',
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
});
