import type { RegExpEngine } from 'ajv/dist/types';
import { RE2JS } from 're2js';

/**
 * Ajv's `code.regExp` engine for remote schemas: every `pattern` and `patternProperties` key is compiled by
 * re2js, whose matching time is linear in the input (no backtracking), so no pattern a remote server sends can
 * make a model's argument slow to check. A pattern it does not accept (lookaround, backreferences) makes the
 * schema fail to compile.
 *
 * @internal
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): { test: (text: string) => boolean } => {
    const compiled = RE2JS.compile(pattern);
    return { test: (text: string) => compiled.test(text) };
  },
  { code: 'linearRegExp' },
);

/**
 * The `regex` format on the same engine: whether `text` is a pattern it compiles. (V8's own parser, which
 * ajv-formats uses, is super-linear on some patterns, such as many groups followed by a backreference.)
 *
 * @internal
 */
export function isLinearRegex(text: string): boolean {
  try {
    RE2JS.compile(text);
    return true;
  } catch {
    return false;
  }
}
