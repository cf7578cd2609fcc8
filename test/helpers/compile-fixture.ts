import ts from 'typescript';
import * as agentcall from '../../src';

/**
 * Compile a TypeScript fixture as a user's project would, with `useDefineForClassFields` off (this project's
 * setting) or on (`tsc --init`'s ES2022+ targets, where every declared field becomes an own property of
 * `new Dto()`, initialised or not), and run it. `agentcall`, `class-validator` and `class-transformer` resolve to
 * the copies the calling test uses, so the fixture's decorators write to the metadata stores agentcall reads.
 *
 * @example compileFixture(`export class Dto { a = 1 }`, true).Dto
 */
export function compileFixture(source: string, useDefineForClassFields: boolean): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields,
    },
  });
  const modules: Record<string, unknown> = {
    agentcall,
    'class-validator': jest.requireActual('class-validator'),
    'class-transformer': jest.requireActual('class-transformer'),
  };
  const load = (specifier: string): unknown => {
    if (!(specifier in modules)) throw new Error(`the fixture imports ${specifier}`);
    return modules[specifier];
  };
  const module = { exports: {} as Record<string, unknown> };
  // Built in this realm, not with node:vm: the fixture's decorators must see the Reflect that reflect-metadata extended.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const run = new Function('require', 'module', 'exports', outputText) as (
    require: (specifier: string) => unknown,
    module: { exports: Record<string, unknown> },
    exports: Record<string, unknown>,
  ) => void;
  run(load, module, module.exports);
  return module.exports;
}
