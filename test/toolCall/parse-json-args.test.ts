import fc from 'fast-check';
import { parseJsonArgs, safeParseJsonArgs, sliceJsonStr } from '../../src/toolCall/parse-json-args';

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const dropForbidden = (key: string, value: unknown) => (FORBIDDEN.has(key) ? undefined : value);

/** JSON text of `value` whose keys are written plainly or with every character as a `\uXXXX` escape. */
function writeJson(value: unknown, escapeKey: (key: string) => boolean): string {
  if (Array.isArray(value)) return `[${value.map((item) => writeJson(item, escapeKey)).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).map(([key, item]) => {
    const written = escapeKey(key)
      ? `"${[...key].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(key);
    return `${written}:${writeJson(item, escapeKey)}`;
  });
  return `{${entries.join(',')}}`;
}

describe('parseJsonArgs', () => {
  it.each([
    ['', {}],
    ['   ', {}],
    ['{"city":"Paris"}', { city: 'Paris' }],
    ['```json\n{"city": "Paris"}\n```', { city: 'Paris' }],
    ["{city: 'Paris', days: 2,}", { city: 'Paris', days: 2 }],
    ['Sure! {"a": [1, 2]} hope that helps', { a: [1, 2] }],
    ['[1, 2, 3]', [1, 2, 3]],
    ['{"a": 1} // trailing comment', { a: 1 }],
  ])('parses %j', (input, expected) => {
    expect(parseJsonArgs(input)).toEqual(expected);
  });

  it.each(['not json', '{"a": ', '{"a": undefined-thing}'])('returns undefined for %j without throwing', (input) => {
    expect(parseJsonArgs(input)).toBeUndefined();
  });

  it('drops keys that reach the prototype chain', () => {
    const parsed = parseJsonArgs(
      '{"__proto__": {"polluted": true}, "a": {"constructor": {"prototype": {"x": 1}}}, "b": 2}',
    ) as Record<string, unknown>;
    expect(parsed).toEqual({ a: {}, b: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    const json5 = parseJsonArgs('{__proto__: {polluted: true}, ok: 1}') as Record<string, unknown>;
    expect(json5).toEqual({ ok: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops the same keys as a reviver on every text, however the keys are written', () => {
    const key = fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', 'b', 'proto', 'x\\y');
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.func(fc.boolean()), (value, escapeKey) => {
        const text = writeJson({ root: value }, escapeKey);
        expect(JSON.stringify(parseJsonArgs(text))).toBe(JSON.stringify(JSON.parse(text, dropForbidden)));
      }),
      { seed: 17, numRuns: 500 },
    );
  });

  it('slices from the first opener to the last closer', () => {
    expect(sliceJsonStr('  x {"a":1} y  ')).toBe('{"a":1}');
    expect(sliceJsonStr('no brackets')).toBe('no brackets');
    expect(sliceJsonStr('{ unclosed')).toBe('{ unclosed');
  });
});

describe('safeParseJsonArgs', () => {
  it('refuses arguments over the length limit', () => {
    expect(safeParseJsonArgs('{"a":"' + 'x'.repeat(100) + '"}', { maxLength: 50 })).toEqual({
      success: false,
      errorMessage: 'Invalid arguments: 108 characters exceeds the limit of 50',
    });
  });

  it('refuses nesting over the depth limit, ignoring brackets inside strings', () => {
    expect(safeParseJsonArgs('[[[[1]]]]', { maxDepth: 3 })).toEqual({
      success: false,
      errorMessage: 'Invalid arguments: nesting deeper than 3 levels',
    });
    expect(safeParseJsonArgs('{"a": "[[[[[["}', { maxDepth: 3 })).toEqual({ success: true, data: { a: '[[[[[[' } });
  });

  it('says when the text is not JSON, and where in the arguments it stops being JSON', () => {
    const failure = (raw: string) => (safeParseJsonArgs(raw) as { errorMessage: string }).errorMessage;
    expect(failure('{"a": ')).toBe('Invalid arguments: not valid JSON: invalid end of input at line 1, column 6');
    expect(failure('{"city": Oslo}')).toBe(
      "Invalid arguments: not valid JSON: invalid character 'O' at line 1, column 10",
    );
    // Positions count in the text the model sent, prose and indentation before the JSON included.
    expect(failure('  Sure! Here it is: {\n  "a": 1,\n  "b": ?}')).toBe(
      "Invalid arguments: not valid JSON: invalid character '?' at line 3, column 8",
    );
    expect(failure('city=Oslo')).toBe("Invalid arguments: not valid JSON: invalid character 'c' at line 1, column 1");
  });
});
