import type * as ToolDecorator from '../../src/decorators/tool.decorator';
import * as Storage from '../../src/metadata/metadata-storage';
import { getMetadataStorage, MetadataStorage } from '../../src/metadata/metadata-storage';

type StorageModule = typeof Storage;
type ToolModule = typeof ToolDecorator;

describe('MetadataStorage', () => {
  it('is one instance on globalThis under Symbol.for, shared by every copy of the package', () => {
    // Two copies of the module, as two installed copies of agentcall would load them.
    let first!: StorageModule;
    let firstTool!: ToolModule['Tool'];
    let second!: StorageModule;
    jest.isolateModules(() => {
      first = jest.requireActual<StorageModule>('../../src/metadata/metadata-storage');
      firstTool = jest.requireActual<ToolModule>('../../src/decorators/tool.decorator').Tool;
    });
    jest.isolateModules(() => {
      second = jest.requireActual<StorageModule>('../../src/metadata/metadata-storage');
    });
    expect(second.MetadataStorage).not.toBe(first.MetadataStorage);

    expect(second.getMetadataStorage()).toBe(first.getMetadataStorage());
    expect(getMetadataStorage()).toBe(first.getMetadataStorage());
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('agentcall.metadata-storage')]).toBe(
      getMetadataStorage(),
    );

    // What one copy's decorator records, the other copy reads.
    class Shared {
      @firstTool()
      ping() {
        return 'pong';
      }
    }
    expect(
      second
        .getMetadataStorage()
        .getTools(Shared)
        .map((tool) => tool.methodName),
    ).toEqual(['ping']);
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
