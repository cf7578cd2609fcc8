// Compile-time checks of toolsFrom's overloads (type-checked by `tsc --noEmit`, never run).
import { toolsFrom } from '../../src/definitions/tools-from';

declare const a: object;
declare const b: object;

export const spread = toolsFrom(a, b);
export const list = toolsFrom([a, b], { strict: true, timeoutMs: 1 });
export const none = toolsFrom();
// @ts-expect-error a misspelled option must not fall through to the spread form
export const misspelled = toolsFrom([a], { strct: true });
