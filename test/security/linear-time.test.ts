import 'reflect-metadata';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import { ThinkTagSplitter } from '../../src/llm/response/think-tags';
import { getErrText } from '../../src/text/error-text';
import { maskSecrets, maskValue } from '../../src/text/mask-secrets';
import { modelSafeText } from '../../src/text/model-text';
import { safeParseJsonArgs } from '../../src/toolCall/parse-json-args';
import { growth } from '../helpers/growth';

/**
 * Every path the model's text reaches must cost about 10× more on input 10× longer, never about 100×. The bound
 * is generous (30×) so a noisy machine cannot fail a linear path, while a quadratic one (~100×) still fails.
 */
const LINEAR = 30;

/** Text shapes that made backtracking patterns scan the rest of the input again at every character. */
const ADVERSARIAL: [string, (n: number) => string][] = [
  ['dotted words (URL scheme run)', (n) => 'a.'.repeat(n / 2)],
  ['repeated key prefix', (n) => 'sk-'.repeat(n / 3)],
  ['repeated JWT prefix', (n) => 'eyJ'.repeat(n / 3)],
  ['user:pass without @', (n) => 'a:'.repeat(n / 2)],
  ['secret name then spaces', (n) => `password${' '.repeat(n)}`],
  ['repeated secret names', (n) => 'password'.repeat(n / 8)],
  ['URL-encoded quotes', (n) => `token${'%22'.repeat(n / 3)}`],
  ['PEM header without end', (n) => `-----BEGIN PRIVATE KEY-----${'A'.repeat(n)}`],
  ['repeated Basic', (n) => 'Basic '.repeat(n / 6)],
  ['one long word', (n) => 'x'.repeat(n)],
  ['secret names followed by message words', (n) => 'password: a '.repeat(n / 12)],
  ['field names repeated as their messages', (n) => 'password: password must '.repeat(n / 24)],
  ['a secret name then a run of dots', (n) => `password: ${'.'.repeat(n)}x`],
  ['twice URL-encoded separators', (n) => `token${'%253D'.repeat(n / 5)}`],
  ['twice URL-encoded scheme separators', (n) => 'a%253A%252F'.repeat(n / 11)],
  ['unindented frames after U+2028', (n) => 'at f (x:1:1)\u2028'.repeat(n / 14)],
  ['a secret name then an unclosed quoted value', (n) => `password: "${'a '.repeat(n / 2)}`],
  ['repeated quoted secret names', (n) => 'password="'.repeat(n / 10)],
  ['secret names opening quoted message words', (n) => 'token: "required '.repeat(n / 17)],
  ['repeated Bearer with symbols', (n) => 'Bearer $'.repeat(n / 8)],
  ['dashed key prefixes after underscores', (n) => '_sk-'.repeat(n / 4)],
  ['underscored key prefixes after underscores', (n) => '_sk_'.repeat(n / 4)],
];

describe('linear time on every path the model controls', () => {
  it.each(ADVERSARIAL)('maskSecrets: %s', (_label, make) => {
    expect(growth(make, maskSecrets, 20_000)).toBeLessThan(LINEAR);
  });

  it.each(ADVERSARIAL)('getErrText: %s', (_label, make) => {
    expect(growth(make, (text) => getErrText(new Error(text)), 100_000)).toBeLessThan(LINEAR);
  });

  it.each(ADVERSARIAL)('modelSafeText (validation and parser text): %s', (_label, make) => {
    expect(growth((n) => make(n).replace(/a/g, 'a\n'), modelSafeText, 100_000)).toBeLessThan(LINEAR);
  });

  it("taking a secret-holding field's value out of its validation message, for a value that overlaps itself", () => {
    // The value is the model's; a message may repeat it glued to a word, so every place is looked at once.
    const echo = (value: string) => maskValue(`x${value}${value}`, value);
    expect(growth((n) => 'a'.repeat(n), echo, 2_000)).toBeLessThan(LINEAR);
  });

  it('the <think> splitter on one-space deltas', () => {
    const split = (deltas: string) => {
      const splitter = new ThinkTagSplitter();
      for (let i = 0; i < deltas.length; i++) splitter.push(deltas[i]);
      return splitter.flush();
    };
    expect(growth((n) => ' '.repeat(n), split, 10_000)).toBeLessThan(LINEAR);
    expect(growth((n) => `<think>${' '.repeat(n)}`, split, 10_000)).toBeLessThan(LINEAR);
  });

  it.each([
    ['unclosed strings', (n: number) => `{"a":${'"'.repeat(n)}`],
    ['prose with apostrophes', (n: number) => `${"it's ".repeat(n / 5)}{"a":1}`],
    ['comment openers', (n: number) => `{"a":1 ${'/*'.repeat(n / 2)}}`],
    ['many keys', (n: number) => `{${Array.from({ length: n / 8 }, (_, i) => `"k${i}":1`).join(',')}}`],
    ['deep nesting', (n: number) => '['.repeat(n) + ']'.repeat(n)],
  ])('argument slicing, depth and key counting: %s', (_label, make) => {
    expect(growth(make, (text) => safeParseJsonArgs(text), 20_000)).toBeLessThan(LINEAR);
  });

  it('decorated validation with many unknown keys, spread so the per-object cap does not stop it', () => {
    class Items {
      @Tool()
      save(@Param('items', { type: () => [String] }) items: string[]) {
        return items.length;
      }
    }
    const [tool] = toolsFrom(new Items());
    const make = (n: number) =>
      JSON.stringify({
        items: [],
        ...Object.fromEntries(Array.from({ length: Math.min(n, 900) }, (_, i) => [`u${i}`, 1])),
      }) + ' '.repeat(n);
    const spread = (n: number) =>
      `{"items":[],"note":{${Array.from({ length: n / 10 }, (_, i) => `"u${i}":1`).join(',')}}}`;
    expect(growth(make, (text) => tool.parseParams!(text), 900)).toBeLessThan(LINEAR);
    expect(growth(spread, (text) => tool.parseParams!(text), 5_000)).toBeLessThan(LINEAR);
  });
});
