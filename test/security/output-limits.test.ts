import { checkFinalAnswer } from '../../src/agentCall/turn/final-answer';
import type { OutputFormat } from '../../src/agentCall/state/output-types';
import { DEFAULT_MAX_ARGS_DEPTH, DEFAULT_MAX_ARGS_LENGTH } from '../../src/constants';

/** A Standard Schema of another library that takes whatever it is given, as a passthrough schema does. */
function passthrough(): OutputFormat & { seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    name: 'Answer',
    schema: { type: 'object' },
    strict: false,
    mode: 'json_schema',
    retries: 2,
    seen,
    validate: (value) => {
      seen.push(value);
      return { value };
    },
  };
}

describe('typed output reads the answer as tool arguments are read', () => {
  it('refuses an answer past the depth or size cap before any parse, and never validates it', async () => {
    const format = passthrough();
    const deep = '['.repeat(DEFAULT_MAX_ARGS_DEPTH + 1) + ']'.repeat(DEFAULT_MAX_ARGS_DEPTH + 1);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const tooDeep = await checkFinalAnswer(format, deep);
      const tooLong = await checkFinalAnswer(format, `"${'x'.repeat(DEFAULT_MAX_ARGS_LENGTH)}"`);
      expect(tooDeep).toEqual({ ok: false, lines: [expect.stringContaining(`deeper than ${DEFAULT_MAX_ARGS_DEPTH}`)] });
      expect(tooLong).toEqual({ ok: false, lines: [expect.stringContaining('over the limit')] });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(format.seen).toEqual([]);
  });

  it("hands a schema own data keys only: the answer's __proto__, constructor and prototype keys are dropped", async () => {
    const format = passthrough();
    const answer =
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}, "a": {"prototype": 2, "b": 1}}';
    const checked = await checkFinalAnswer(format, answer);

    expect(checked.ok).toBe(true);
    const value = (checked as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['a']);
    expect(value.a).toEqual({ b: 1 });
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('still reads an answer in one fence', async () => {
    const checked = await checkFinalAnswer(passthrough(), '```json\n{"a": 1}\n```');
    expect(checked).toEqual({ ok: true, value: { a: 1 } });
  });
});
