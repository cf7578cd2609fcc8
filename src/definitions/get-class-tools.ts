import type { ToolDefinitionProblem } from '../errors/tool-definition.error';
import { classChain } from '../metadata/class-chain';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ToolMetadata } from '../metadata/tool-metadata';
import { buildToolBlueprint, type ToolBlueprint } from './build-tool-blueprint';
import type { ClassRef } from '../metadata/options';

/**
 * The blueprints of every tool a class has (its own and inherited), and the class-level problems.
 *
 * @internal
 */
export type ClassTools = {
  readonly tools: readonly ToolBlueprint[];
  readonly problems: readonly ToolDefinitionProblem[];
};

const cache = new WeakMap<ClassRef, ClassTools>();

/**
 * The tools of a class, built on first use and cached for the life of the class, so every instance
 * shares one schema, one arguments class and one parser.
 *
 * @internal
 */
export function getClassTools(type: ClassRef): ClassTools {
  const cached = cache.get(type);
  if (cached) return cached;
  const records = toolRecords(type);
  const built: ClassTools = {
    tools: records.map((record) => buildToolBlueprint(type.name, record)),
    problems: records.length === 0 ? [{ className: type.name, message: 'has no @Tool methods' }] : [],
  };
  cache.set(type, built);
  return built;
}

/** `@Tool` records of the class and its bases, base methods first; a subclass's records for a method replace its base's. */
function toolRecords(type: ClassRef): ToolMetadata[] {
  const byMethod = new Map<string, ToolMetadata[]>();
  for (const cls of classChain(type).reverse()) {
    const own = getMetadataStorage().getTools(cls);
    for (const methodName of new Set(own.map((record) => record.methodName))) {
      byMethod.set(
        methodName,
        own.filter((record) => record.methodName === methodName),
      );
    }
  }
  return [...byMethod.values()].flat();
}
