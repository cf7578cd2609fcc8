import { classOf } from '../metadata/class-chain';
import type { ClassRef } from '../metadata/options';
import { getClassTools } from './get-class-tools';
import { collectClassGraph } from './model/collect-class-graph';
import { getClassModel } from './model/get-class-model';
import { undecoratedWarning } from './model/undecorated-fields';

const NO_DESCRIPTION =
  '@Tool() has no description, so the model knows the tool by its name alone; give @Tool({ description })';

/**
 * The definition report's warnings, beside {@link schemaReport}'s omissions: what `toolsFrom` accepts and a team
 * should still fix: a tool without a description (or with a blank one), and a DTO property with no decorator at
 * all (ignored: not in the schema, refused if sent). Takes the instances given to
 * `toolsFrom`, or their classes; tools are listed in the order `toolsFrom` builds them. Never throws, also for a
 * class `toolsFrom` refuses.
 *
 * @example
 * for (const w of definitionWarnings([NoteTools])) console.warn(`${w.className}.${w.methodName}: ${w.message}`);
 * // NoteTools.list: @Tool() has no description, …
 */
export function definitionWarnings(targets: readonly object[]): {
  /** The tool's name, as the model knows it. */
  readonly tool: string;
  /** The class the tool was read from. */
  readonly className: string;
  /** The `@Tool` method. */
  readonly methodName: string;
  /** What is missing and how to give it. */
  readonly message: string;
}[] {
  const warnings: DefinitionWarning[] = [];
  for (const target of targets) {
    const type = typeof target === 'function' ? (target as ClassRef) : classOf(target);
    for (const tool of getClassTools(type).tools) {
      const { name, description } = tool.schemaFor('openai').schema.function;
      const at = { tool: name, className: type.name, methodName: tool.methodName };
      if (!description?.trim()) warnings.push({ ...at, message: NO_DESCRIPTION });
      for (const dto of collectClassGraph(tool.argsClass).classes) {
        for (const property of getClassModel(dto).ignored) {
          warnings.push({ ...at, message: undecoratedWarning(dto.name, property) });
        }
      }
    }
  }
  return warnings;
}

/** Something `toolsFrom` accepts but that likely hurts how well a model uses the tool. */
export type DefinitionWarning = ReturnType<typeof definitionWarnings>[number];
