import fc from 'fast-check';
import { safeParseJsonArgs } from '../../src/toolCall/parse-json-args';

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
