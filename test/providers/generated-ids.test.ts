import fc from 'fast-check';
import { ToolCallAccumulator } from '../../src/llm/response/tool-call-accumulator';
import { readWireIndex, readWireProviders } from './wire-corpus';

const rules = readWireProviders().map((p) => ({ provider: p.provider, rule: new RegExp(p.toolCallId.pattern) }));
const generatedIdRule = new RegExp(readWireIndex().generatedIdRule.pattern);

/** A streamed call opening: no id, an empty one, or one from a small pool so that repeats and taken ids are common. */
const opening = fc.record({
  id: fc.option(fc.constantFrom('', 'call_1', 'call_2', 'D681PevKs', 'functions.get_weather:0'), { nil: undefined }),
  name: fc.constantFrom('get_weather', 'get_time'),
});

describe('generated tool-call ids', () => {
  it('every id the library generates is accepted by every provider in the wire corpus', () => {
    expect(rules.length).toBeGreaterThanOrEqual(11);
    fc.assert(
      fc.property(
        fc.array(opening, { minLength: 1, maxLength: 12 }),
        fc.uniqueArray(fc.constantFrom('call_1', 'D681PevKs', 'functions.get_weather:0')),
        (openings, history) => {
          const taken = new Set<string>(history);
          const accumulator = new ToolCallAccumulator({}, new Set(taken));
          openings.forEach((o, index) => accumulator.push([{ index, id: o.id, function: { name: o.name } }]));
          const ids = accumulator.finish().map((call) => call.id);

          expect(new Set([...ids, ...taken]).size).toBe(ids.length + taken.size);
          const sent = new Set<string>();
          ids.forEach((id, i) => {
            const providerId = openings[i].id;
            const kept = providerId && !taken.has(providerId) && !sent.has(providerId);
            if (kept) expect(id).toBe(providerId);
            else {
              expect(id).toMatch(generatedIdRule);
              for (const { rule } of rules) expect(id).toMatch(rule);
            }
            sent.add(providerId || id);
          });
        },
      ),
      { seed: 14, numRuns: 300 },
    );
  });

  it("the corpus's generated-id rule is Mistral's, the strictest published", () => {
    const mistral = readWireProviders().find((p) => p.dir === 'mistral')!;
    expect(readWireIndex().generatedIdRule.pattern).toBe(mistral.toolCallId.pattern);
  });
});
