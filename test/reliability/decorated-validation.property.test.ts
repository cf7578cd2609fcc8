import 'reflect-metadata';
import { ArrayMaxSize, IsInt, Length, Max, Min } from 'class-validator';
import fc from 'fast-check';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { runTool } from '../../src/toolCall/run-tool';
import { parseJsonArgs } from '../../src/toolCall/parse-json-args';
import { argumentsArb } from '../helpers/arbitraries';

class Stop {
  @Param({ description: 'Place name' }) place!: string;
  @Param({ optional: true }) @IsInt() @Min(0) minutes?: number;
}

class Trip {
  @Param({ description: 'Title' }) @Length(1, 10) title!: string;
  @Param({ type: () => Stop }) start!: Stop;
  @Param({ type: () => [Stop], optional: true }) @ArrayMaxSize(2) via?: Stop[];
}

class TravelTools {
  received: { tool: string; args: unknown }[] = [];

  @Tool({ description: 'Forecast' })
  forecast(
    @Param('city', {}, Length(1, 20)) city: string,
    @Param('days', { optional: true }, IsInt(), Min(1), Max(7)) days?: number,
    @Param('tags', { optional: true, type: () => [String] }, ArrayMaxSize(3)) tags?: string[],
    @Param('unit', { optional: true, enum: ['c', 'f'] }) unit?: string,
  ) {
    this.received.push({ tool: 'forecast', args: { city, days, tags, unit } });
    return 'ok';
  }

  @Tool({ description: 'Plan a trip' })
  plan(@Param() trip: Trip) {
    this.received.push({ tool: 'plan', args: trip });
    return 'ok';
  }
}

// The oracles restate the tools' rules from their declarations above, independently of the library.
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Json, keys: string[]) => Object.keys(v).every((k) => keys.includes(k));
const absent = (v: unknown) => v === undefined || v === null;
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);

function validForecast(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, ['city', 'days', 'tags', 'unit'])) return false;
  return (
    typeof v.city === 'string' &&
    v.city.length >= 1 &&
    v.city.length <= 20 &&
    (absent(v.days) || (isInt(v.days) && (v.days as number) >= 1 && (v.days as number) <= 7)) &&
    (absent(v.tags) || (Array.isArray(v.tags) && v.tags.length <= 3 && v.tags.every((t) => typeof t === 'string'))) &&
    (absent(v.unit) || v.unit === 'c' || v.unit === 'f')
  );
}

const validStop = (v: unknown) =>
  isObject(v) &&
  onlyKeys(v, ['place', 'minutes']) &&
  typeof v.place === 'string' &&
  (absent(v.minutes) || (isInt(v.minutes) && (v.minutes as number) >= 0));

function validTrip(v: unknown): boolean {
  if (!isObject(v) || !onlyKeys(v, ['title', 'start', 'via'])) return false;
  return (
    typeof v.title === 'string' &&
    v.title.length >= 1 &&
    v.title.length <= 10 &&
    validStop(v.start) &&
    (absent(v.via) || (Array.isArray(v.via) && v.via.length <= 2 && v.via.every(validStop)))
  );
}

/** What the method receives for valid input: the same values, with the nulls of optional fields gone. */
const withoutNulls = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutNulls)
    : isObject(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== null)
            .map(([k, x]) => [k, withoutNulls(x)]),
        )
      : v;

// ASCII text, so string length means the same thing to the oracle and to class-validator.
const text = (max: number) => fc.string({ unit: 'grapheme-ascii', maxLength: max });
const wrong = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  text(5),
);
/** Mostly a plausible value, sometimes a wrong type, sometimes missing: valid and invalid calls both stay common. */
const field = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 8, arbitrary: good },
    { weight: 1, arbitrary: wrong },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
const extraKey = fc.oneof(
  { weight: 9, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('extra', 'City', 'admin'), wrong) },
);

function record(fields: Record<string, fc.Arbitrary<unknown>>) {
  return fc.tuple(fc.record(fields), extraKey).map(([value, extra]) => {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
    if (extra) out[extra[0]] = extra[1];
    return out;
  });
}

const forecastArgs = record({
  city: field(text(25)),
  days: field(fc.integer({ min: -2, max: 10 })),
  tags: field(fc.array(fc.oneof({ weight: 12, arbitrary: text(4) }, wrong), { maxLength: 4 })),
  unit: field(fc.constantFrom('c', 'f', 'k', 'C')),
});
const stopArb = record({ place: field(text(8)), minutes: field(fc.integer({ min: -3, max: 90 })) });
const tripArgs = record({
  title: field(text(12)),
  start: field(stopArb),
  via: field(fc.array(fc.oneof({ weight: 8, arbitrary: stopArb }, wrong), { maxLength: 3 })),
});

/** Raw arguments: mostly JSON of a candidate object, sometimes anything at all. */
const raw = (args: fc.Arbitrary<Json>) =>
  fc.oneof(
    { weight: 4, arbitrary: args.map((a) => JSON.stringify(a)) },
    { weight: 1, arbitrary: argumentsArb.filter((a): a is string => typeof a === 'string') },
  );

const NUM_RUNS = 400;

describe('decorated tools never receive a value that failed validation', () => {
  const instance = new TravelTools();
  const tools = toolsFrom(instance);
  const call = (name: string, args: string): ChatCompletionMessageToolCall => ({
    id: 'c',
    type: 'function',
    function: { name, arguments: args },
  });

  it('refuses an array of arrays where an array of DTOs is declared (found by the property below)', async () => {
    instance.received.length = 0;
    for (const via of ['[[]]', '[[{"place":"x"}]]']) {
      const { response } = await runTool({
        call: call('plan', `{"title":"t","start":{"place":"p"},"via":${via}}`),
        messages: [],
        tools,
      });
      expect(response.split('\n').slice(0, 2)).toEqual([
        'Invalid arguments for tool "plan":',
        'via: each value in via must be an object, not an array',
      ]);
    }
    expect(instance.received).toEqual([]);
  });

  it.each([
    [
      'forecast',
      raw(forecastArgs),
      validForecast,
      (a: Json) => ({ city: a.city, days: a.days ?? undefined, tags: a.tags ?? undefined, unit: a.unit ?? undefined }),
    ],
    ['plan', raw(tripArgs), validTrip, (a: Json) => withoutNulls(a)],
  ] as const)(
    '%s runs exactly when its arguments are valid, and then with exactly those values',
    async (name, argsArb, valid, expected) => {
      let validSeen = 0;
      await fc.assert(
        fc.asyncProperty(argsArb, async (args) => {
          instance.received.length = 0;
          const { response } = await runTool({ call: call(name, args), messages: [], tools });
          // The oracle sees what the model meant, after the same lenient JSON reading every tool gets.
          const meant = parseJsonArgs(args);
          if (valid(meant)) {
            validSeen++;
            expect(response).toBe('ok');
            expect(instance.received).toHaveLength(1);
            expect(JSON.parse(JSON.stringify(instance.received[0].args))).toEqual(
              JSON.parse(JSON.stringify(expected(meant as Json))),
            );
          } else {
            expect(instance.received).toEqual([]);
            expect(response.split('\n')[0]).toBe(`Invalid arguments for tool "${name}":`);
            expect(response.split('\n').length).toBeGreaterThan(1);
          }
        }),
        { numRuns: NUM_RUNS },
      );
      // Both outcomes were actually exercised, so the property is not vacuous.
      expect(validSeen).toBeGreaterThan(NUM_RUNS * 0.05);
      expect(validSeen).toBeLessThan(NUM_RUNS * 0.95);
    },
  );
});
