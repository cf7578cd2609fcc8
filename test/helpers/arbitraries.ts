import fc from 'fast-check';
import JSON5 from 'json5';

/** `depth` openers of one kind, optionally closed: nesting a recursive parser would choke on. */
const nested = (depth: number, open: '[' | '{"a":', closed: boolean) =>
  open.repeat(depth) + (open === '[' ? '' : '1') + (closed ? (open === '[' ? ']' : '}').repeat(depth) : '');

/**
 * Whatever a model (or a broken provider) may put in `function.arguments`: random and full-unicode text, valid
 * and truncated JSON, JSON5, JSON wrapped in prose or code fences, huge and non-finite numbers, deep and
 * unbalanced nesting, prototype keys, and the non-strings some providers really send (null, objects).
 */
export const argumentsArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.json(),
  fc.json().chain((json) => fc.nat({ max: json.length }).map((cut) => json.slice(0, cut))),
  fc.jsonValue().map((value) => JSON5.stringify(value)),
  fc.jsonValue().map((value) => JSON5.stringify(value, null, 2).replace(/\n}$/, ',\n}')),
  fc.tuple(fc.string(), fc.json(), fc.string()).map(([before, json, after]) => `${before}${json}${after}`),
  fc.json().map((json) => '```json\n' + json + '\n```'),
  fc.bigInt().map((n) => `{"n": ${n}${'0'.repeat(400)}}`),
  fc.constantFrom(
    '{"n": 1e400}',
    '{"n": -1e400}',
    '[1e999999]',
    '{n: NaN}',
    '{n: Infinity, m: -Infinity}',
    '{"n": 0x1F}',
    '{"n": .5e-400}',
  ),
  fc
    .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[' as const, '{"a":' as const), fc.boolean())
    .map(([d, o, c]) => nested(d, o, c)),
  fc.constantFrom(
    '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{__proto__: {polluted: true}, a: 1}',
    '[{"__proto__": {"polluted": true}}]',
  ),
  fc.constantFrom(
    undefined,
    null,
    '',
    '   ',
    'null',
    'true',
    '"just a string"',
    '42',
    '[]',
    '{}',
    '}{',
    '][',
    '\u0000',
    '\uD800',
  ),
  fc.oneof(fc.integer(), fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue())),
);

/** Things a tool author might throw: Errors, their subclasses, and every non-Error value. */
export const thrownArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.string().map((message) => new Error(message)),
  fc.string().map((message) => new TypeError(message)),
  fc.array(fc.string(), { maxLength: 3 }).map(
    (messages) =>
      new AggregateError(
        messages.map((m) => new Error(m)),
        'many',
      ),
  ),
  fc.anything(),
  fc.constantFrom<unknown>(
    undefined,
    null,
    Symbol('thrown'),
    10n,
    () => 'a function',
    Object.create(null),
    { message: { nested: 'not a string' } },
    Object.defineProperty({}, 'message', {
      get() {
        throw new Error('message getter throws');
      },
    }),
    // Throws on every string key the library could read; symbol keys answer, so fast-check can still clone it.
    new Proxy(
      {},
      {
        get(_target, key) {
          if (typeof key === 'symbol') return undefined;
          throw new Error('proxy trap');
        },
        has(_target, key) {
          if (typeof key === 'symbol') return false;
          throw new Error('proxy trap');
        },
      },
    ),
  ),
);

/** Things a hand-written `execute` might resolve with. */
export const returnedArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.string().map((response) => ({ response })),
  fc.string(),
  fc.anything(),
  fc.anything().map((response) => ({ response })),
  fc.constantFrom<unknown>(
    undefined,
    null,
    10n,
    Symbol('returned'),
    { response: 10n },
    (() => {
      const circular: Record<string, unknown> = { a: 1 };
      circular.self = circular;
      return circular;
    })(),
    {
      toJSON() {
        throw new Error('toJSON throws');
      },
    },
    Object.assign(Object.create(null), {
      toJSON() {
        throw new Error('toJSON throws and String() fails too');
      },
    }),
  ),
);
