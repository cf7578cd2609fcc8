import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The property names of an exported type, as the compiler sees it (intersections and unions included). */
function propertyNames(file: string, typeName: string): string[] {
  const program = ts.createProgram([join(root, file)], {
    strict: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    noEmit: true,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(join(root, file))!)!;
  const symbol = checker.getExportsOfModule(module).find((s) => s.name === typeName);
  if (!symbol) throw new Error(`${file} exports no ${typeName}`);
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  // Symbol-keyed props are for agentcall's own adapters and cannot be written in an object literal by name.
  return checker
    .getPropertiesOfType(type)
    .map((p) => p.name)
    .filter((name) => !name.startsWith('__@'));
}

describe('docs that stay true', () => {
  it('docs/agent-loop.md names every prop of RunAgentCallProps', () => {
    const page = read('docs/agent-loop.md');
    const names = propertyNames('src/agentCall/type.ts', 'RunAgentCallProps');
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it('the source layout in docs/decisions.md lists every folder of src/', () => {
    const page = read('docs/decisions.md');
    const layout = /## Source layout\n\n```text\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.map(({ name }) => `src/${name}/`).filter((folder) => !layout.includes(folder))).toEqual([]);
  });
});
