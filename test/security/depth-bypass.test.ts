import fc from 'fast-check';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { startScriptedServer } from '../../src/testing';
import { parseJsonArgs, safeParseJsonArgs } from '../../src/toolCall/parse-json-args';
import { runTool } from '../../src/toolCall/run-tool';
import { fakeTool, user } from '../helpers/tools';

/** Nesting depth of a parsed value: 0 for a scalar, 1 for a flat array or object. Iterative: values may be deep. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    max = Math.max(max, depth + 1);
    for (const child of Object.values(current as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return max;
}

const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Text around or inside the JSON that a raw-text bracket counter mistakes for the start of a string. */
const BYPASSES: [string, string][] = [
  ['an apostrophe in prose before the JSON', `Here's the call: ${deepObject(1000)}`],
  ['a quote in prose before the JSON', `He said "go ${deepObject(1000)}`],
  ['an apostrophe in prose after the JSON', `${deepObject(1000)} that's all`],
  ['a quote inside a JSON5 block comment', `{/* it's " */ "x": ${deepObject(1000)}}`],
  ['a quote inside a JSON5 line comment', `{// it's\n "x": ${deepObject(1000)}}`],
  ['a code fence with a quoted language', `\`\`\`'json'\n${deepObject(1000)}\n\`\`\``],
  ['single-quoted JSON5 strings with escaped quotes', `{'a\\'': ${deepObject(1000)}}`],
];

describe('the depth cap holds whatever surrounds the JSON', () => {
  it.each(BYPASSES)('refuses 1,000 levels behind %s', (_label, text) => {
    expect(safeParseJsonArgs(text)).toEqual({
      success: false,
      errorMessage: 'Invalid arguments: nesting deeper than 64 levels',
    });
  });

  it('still reads brackets inside strings and comments as text', () => {
    expect(safeParseJsonArgs(`It's here: {"a": "[[[[", /* ]]]] ' */ 'b': '{{{{'}`, { maxDepth: 1 })).toEqual({
      success: true,
      data: { a: '[[[[', b: '{{{{' },
    });
  });

  it('caps keys per object, wherever the object is', () => {
    const wide = `{${Array.from({ length: 1_001 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(safeParseJsonArgs(wide)).toEqual({
      success: false,
      errorMessage: 'Invalid arguments: an object with more than 1000 keys',
    });
    expect(safeParseJsonArgs(`Sure: {"outer": [${wide}]}`).success).toBe(false);
    expect(safeParseJsonArgs(`{"a": ${wide.replace(/,"k1000":1/, '')}}`).success).toBe(true);
  });

  it('never returns data deeper or wider than its caps, whatever prose surrounds it (property-based)', () => {
    const prose = fc.stringMatching(/^[a-z '"/*`\n{}[\]:,]{0,30}$/);
    fc.assert(
      fc.property(
        prose,
        fc.jsonValue({ maxDepth: 8 }),
        prose,
        fc.integer({ min: 1, max: 6 }),
        (before, value, after, maxDepth) => {
          const result = safeParseJsonArgs(`${before}${JSON.stringify(value)}${after}`, { maxDepth, maxKeys: 3 });
          if (!result.success) return;
          expect(depthOf(result.data)).toBeLessThanOrEqual(maxDepth);
        },
      ),
      { numRuns: 2_000, seed: 18 },
    );
  });
});

/** A hand-written tool without `parseParams`: `runTool` reads its arguments with the lenient default parser. */
const handWritten = () => fakeTool('lookup', ({ params }) => ({ response: `got ${JSON.stringify(params)?.length}` }));
const call = (args: string): ChatCompletionMessageToolCall => ({
  id: 'c',
  type: 'function',
  function: { name: 'lookup', arguments: args },
});

describe('the caps hold for hand-written tools without parseParams', () => {
  it.each(BYPASSES)('refuses 1,000 levels behind %s, without running the tool', async (_label, text) => {
    const tool = handWritten();
    expect(await runTool({ call: call(text), messages: [], tools: [tool] })).toEqual({
      response: 'Invalid arguments: nesting deeper than 64 levels',
      outcome: 'invalid_arguments',
      error: 'Invalid arguments: nesting deeper than 64 levels',
    });
    expect(tool.calls).toHaveLength(0);
  });

  it('refuses too many keys in one object and too many characters, saying which cap', async () => {
    const wide = `Here's the call: {${Array.from({ length: 1_001 }, (_, i) => `"k${i}":1`).join(',')}}`;
    const long = `{"a":"${'x'.repeat(1_000_000)}"}`;
    const tool = handWritten();
    expect((await runTool({ call: call(wide), messages: [], tools: [tool] })).response).toBe(
      'Invalid arguments: an object with more than 1000 keys',
    );
    expect((await runTool({ call: call(long), messages: [], tools: [tool] })).response).toBe(
      `Invalid arguments: ${long.length} characters exceeds the limit of 1000000`,
    );
    expect(tool.calls).toHaveLength(0);
  });

  it('keeps the lenient reading within the caps: prose, JSON5, nothing and text that does not parse', async () => {
    const tool = handWritten();
    const within = `Here's the call: {/* it's " */ "x": ${deepObject(63)}}`;
    for (const args of [within, "{city: 'Paris',}", '', 'not json at all', '{"a": ']) {
      expect(await runTool({ call: call(args), messages: [], tools: [tool] })).toMatchObject({ outcome: 'ok' });
    }
    expect(tool.calls.map((c) => c.params)).toEqual([
      parseJsonArgs(within),
      { city: 'Paris' },
      {},
      undefined,
      undefined,
    ]);
    expect(depthOf(tool.calls[0].params)).toBe(64);
  });

  it('answers the model in the next request, one tool message per call', async () => {
    const server = await startScriptedServer({
      turns: [
        {
          toolCalls: [
            { id: 'deep', name: 'lookup', arguments: BYPASSES[0][1] },
            { id: 'fine', name: 'lookup', arguments: '{"q":"x"}' },
          ],
        },
        { text: 'done' },
      ],
    });
    try {
      const tool = handWritten();
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [tool],
      });
      expect(result.stopReason).toBe('completed');
      expect(tool.calls.map((c) => c.params)).toEqual([{ q: 'x' }]);
      const sent = server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(sent).toEqual(['Invalid arguments: nesting deeper than 64 levels', 'got 9']);
    } finally {
      await server.close();
    }
  });
});
