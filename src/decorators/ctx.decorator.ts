// Loaded before any decorated class body runs, so TypeScript's emitted design:* metadata has somewhere to go.
import 'reflect-metadata';
import { getMetadataStorage } from '../metadata/metadata-storage';
import { classOf } from '../metadata/class-chain';

/**
 * Inject the `ToolExecuteContext` (the raw call, the turn's messages, the parsed params and the abort
 * signal). The parameter is not part of the arguments the model sees.
 *
 * @example
 * @Tool({ description: 'Fetch a page' })
 * fetchPage(@Param('url') url: string, @Ctx() ctx: ToolExecuteContext) {
 *   return fetch(url, { signal: ctx.signal }).then((res) => res.text());
 * }
 */
export function Ctx(): ParameterDecorator {
  return (prototype, key, index) => {
    if (key === undefined) return;
    getMetadataStorage().addParam({ kind: 'context', target: classOf(prototype), methodName: String(key), index });
  };
}
