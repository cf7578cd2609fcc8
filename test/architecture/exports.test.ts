import { entryProgram, exportedNames, packageEntries, unexportedTypes } from './entry-names';

// Every entry of package.json `exports`, its runtime names and its type names, read with the compiler from the
// sources the build compiles. A change here is a change of the public surface: make it on purpose.
// The module's own `require`: the entry is chosen at run time, and a dynamic `import()` needs jest's ESM mode.
const load: NodeJS.Require = require;
const entries = packageEntries();
const program = entryProgram(entries.map(({ file }) => file));

describe('the names each entry exports', () => {
  it.each(entries.map(({ entry, file }) => [entry, file]))('%s', (entry, file) => {
    const names = exportedNames(program, file);
    expect(names).toMatchSnapshot();
    // The compiler's view of the runtime names is what the module really gives.
    const loaded = Object.keys(load(file) as object).filter((name) => name !== '__esModule');
    expect(loaded.sort()).toEqual(names.values);
  });

  it('each runtime name has one entry: no entry exports another entry’s value', () => {
    const owners = new Map<string, string[]>();
    for (const { entry, file } of entries)
      for (const name of exportedNames(program, file).values) owners.set(name, [...(owners.get(name) ?? []), entry]);
    const shared = [...owners].filter(([, where]) => where.length > 1);
    expect(shared).toEqual([]);
  });

  it('each name, value or type, has one entry', () => {
    const owners = new Map<string, string[]>();
    for (const { entry, file } of entries) {
      const { values, types } = exportedNames(program, file);
      for (const name of [...values, ...types]) owners.set(name, [...(owners.get(name) ?? []), entry]);
    }
    expect([...owners].filter(([, where]) => where.length > 1)).toEqual([]);
  });

  // What users call, not what adapters share (`agentcall/internal`): a root entry past this has grown helpers.
  it('the root entry exports at most 100 names, values and types', () => {
    const root = entries.find(({ entry }) => entry === '.')!;
    const { values, types } = exportedNames(program, root.file);
    expect(values.length + types.length).toBeLessThanOrEqual(100);
  });

  it('every type the public entries’ declarations refer to is exported by one of them', () => {
    const publicFiles = entries.filter(({ entry }) => entry !== './internal').map(({ file }) => file);
    // `NoArrays` only makes the type checker refuse an array in the spread form of `toolsFrom`: not a user's type.
    expect(unexportedTypes(program, publicFiles).filter((name) => name !== 'NoArrays')).toEqual([]);
  });
});
