import { AgentcallError } from './agentcall.error';

/**
 * Thrown by `toolsFrom` when the `reflect-metadata` polyfill is not loaded, so no parameter or property type
 * can be read.
 */
export class ReflectMetadataMissingError extends AgentcallError {
  constructor() {
    super(
      'The reflect-metadata polyfill is not loaded (Reflect.getMetadata is missing). ' +
        "Add `import 'reflect-metadata'` once at your entry point, before any decorated class is declared, " +
        'and compile with "experimentalDecorators" and "emitDecoratorMetadata".',
    );
  }
}
