import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '../..');

/** Each entry of package.json `exports` (`.`, `./testing`, …) and the source file it is built from. */
export function packageEntries(): { entry: string; file: string }[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  return Object.keys(manifest.exports)
    .filter((entry) => entry !== './package.json')
    .map((entry) => {
      const name = entry === '.' ? 'index' : entry.slice(2);
      const folder = join(root, 'src', name, 'index.ts');
      return { entry, file: existsSync(folder) ? folder : join(root, 'src', `${name}.ts`) };
    });
}

/** One program over every entry, as the build compiles them. */
export function entryProgram(files: readonly string[]): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json cannot be read');
  return ts.createProgram([...files], { ...config.options, noEmit: true });
}

/** The names an entry exports, split into runtime values and type-only names (sorted). */
export function exportedNames(program: ts.Program, file: string): { values: string[]; types: string[] } {
  const checker = program.getTypeChecker();
  const values: string[] = [];
  const types: string[] = [];
  for (const symbol of exportsOf(program, file)) {
    const target = resolve(checker, symbol);
    const typeOnly = symbol.declarations?.some(isTypeOnlyExport) ?? false;
    (!typeOnly && target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name);
  }
  return { values: values.sort(), types: types.sort() };
}

/**
 * Types declared in `src/` that an entry's exports refer to in their declarations (signatures, properties,
 * unions, type arguments), followed transitively, that none of `publicFiles` exports: a user can meet them in a
 * hover or an error but cannot name them. Function and method bodies, private members and members marked
 * `@internal` are not read.
 */
export function unexportedTypes(program: ts.Program, publicFiles: readonly string[]): string[] {
  const checker = program.getTypeChecker();
  const exported = new Set<ts.Symbol>();
  for (const file of publicFiles) for (const symbol of exportsOf(program, file)) exported.add(resolve(checker, symbol));
  const seen = new Set<ts.Symbol>(exported);
  const queue = [...exported];
  const missing = new Set<string>();
  const srcDir = join(root, 'src');

  const visit = (node: ts.Node): void => {
    if (ts.isBlock(node) || isPrivateMember(node) || isInternal(node)) return;
    const name = ts.isTypeReferenceNode(node)
      ? node.typeName
      : ts.isExpressionWithTypeArguments(node)
        ? node.expression
        : ts.isTypeQueryNode(node)
          ? node.exprName
          : undefined;
    const symbol = name && checker.getSymbolAtLocation(name);
    if (symbol) {
      const target = resolve(checker, symbol);
      const declarations = target.declarations ?? [];
      const declaredInSrc = declarations.some((d) => d.getSourceFile().fileName.startsWith(srcDir));
      const isTypeParameter = declarations.some(ts.isTypeParameterDeclaration);
      if (declaredInSrc && !isTypeParameter && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
        if (!exported.has(target)) missing.add(target.name);
      }
    }
    ts.forEachChild(node, visit);
  };

  while (queue.length > 0) for (const declaration of queue.shift()!.declarations ?? []) visit(declaration);
  return [...missing].sort();
}

function exportsOf(program: ts.Program, file: string): ts.Symbol[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file} is not a module of the program`);
  return checker.getExportsOfModule(module);
}

function resolve(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function isTypeOnlyExport(declaration: ts.Declaration): boolean {
  return ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
}

function isInternal(node: ts.Node): boolean {
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal');
}

function isPrivateMember(node: ts.Node): boolean {
  if (!ts.isClassElement(node) && !ts.isParameter(node)) return false;
  if (node.name && ts.isPrivateIdentifier(node.name)) return true;
  if (ts.isParameter(node) && !ts.isConstructorDeclaration(node.parent)) return false;
  return (
    ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword) ?? false)
  );
}
