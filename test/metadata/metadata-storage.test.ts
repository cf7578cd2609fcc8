import { getMetadataStorage, MetadataStorage } from '../../src/metadata/metadata-storage';

describe('MetadataStorage', () => {
  it('is one instance on globalThis under Symbol.for, shared by every copy of the package', () => {
    const storage = getMetadataStorage();
    expect(getMetadataStorage()).toBe(storage);
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('agentcall.metadata-storage')]).toBe(storage);
  });

  it('keeps records per class and returns parameters of one method sorted by index', () => {
    const storage = new MetadataStorage();
    class A {}
    class B {}
    storage.addParam({ kind: 'context', target: A, methodName: 'm', index: 2 });
    storage.addParam({ kind: 'args', target: A, methodName: 'm', index: 0, options: {} });
    storage.addParam({ kind: 'context', target: A, methodName: 'other', index: 1 });
    storage.addParam({ kind: 'context', target: B, methodName: 'm', index: 1 });
    expect(storage.getParams(A, 'm').map((p) => p.index)).toEqual([0, 2]);
    expect(storage.getParams(B, 'm').map((p) => p.target)).toEqual([B]);
    expect(storage.getTools(A)).toEqual([]);
    expect(storage.getProperties(B)).toEqual([]);
  });
});
