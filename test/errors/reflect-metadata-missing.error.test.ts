import { ReflectMetadataMissingError } from '../../src/errors/reflect-metadata-missing.error';

describe('ReflectMetadataMissingError', () => {
  it('tells how to load the polyfill and which compiler options are needed', () => {
    const { message } = new ReflectMetadataMissingError();
    expect(message).toContain("import 'reflect-metadata'");
    expect(message).toContain('emitDecoratorMetadata');
  });
});
