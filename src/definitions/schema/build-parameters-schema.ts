import type { ClassType } from '../../metadata/options';
import type { ClassGraph } from '../model/collect-class-graph';
import type { FieldModel, FieldShape } from '../model/field-model';
import { getClassModel } from '../model/get-class-model';
import type { JsonSchema } from './json-schema';

type BuildContext = {
  readonly graph: ClassGraph;
  readonly root: ClassType;
  readonly defs: Record<string, JsonSchema>;
  readonly defNames: Map<ClassType, string>;
};

/**
 * The JSON Schema of a tool's arguments object, from the same field models that validate it.
 *
 * Nested classes are inlined; only classes that reach themselves go to `$defs` (the root itself is `#`),
 * so providers without `$ref` support still get a flat schema for ordinary DTOs. Every object sets
 * `additionalProperties: false`, matching the validation, which refuses unknown properties.
 *
 * @example buildParametersSchema(collectClassGraph(OrderDto)) // { type: 'object', properties: {...}, required: [...], additionalProperties: false }
 *
 * @internal
 */
export function buildParametersSchema(graph: ClassGraph, description?: string): JsonSchema {
  const root = graph.classes[0];
  const context: BuildContext = { graph, root, defs: {}, defNames: new Map() };
  const schema = objectSchema(root, context);
  return {
    ...(description !== undefined && { description }),
    ...schema,
    ...(Object.keys(context.defs).length > 0 && { $defs: context.defs }),
  };
}

function objectSchema(type: ClassType, context: BuildContext): JsonSchema {
  const { fields } = getClassModel(type);
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) properties[field.name] = fieldSchema(field, context);
  const required = fields.filter((field) => !field.optional).map((field) => field.name);
  return { type: 'object', properties, required, additionalProperties: false };
}

function fieldSchema(field: FieldModel, context: BuildContext): JsonSchema {
  return {
    ...(field.description !== undefined && { description: field.description }),
    ...shapeSchema(field.shape, context),
    ...(field.default !== undefined && { default: field.default }),
    ...(field.examples !== undefined && { examples: [...field.examples] }),
  };
}

function shapeSchema(shape: FieldShape, context: BuildContext): JsonSchema {
  switch (shape.kind) {
    case 'map':
      return { type: 'object', ...shape.keywords };
    case 'enum':
      return { ...enumType(shape.values), enum: [...shape.values], ...shape.keywords };
    case 'array':
      return { type: 'array', items: shapeSchema(shape.items, context), ...shape.keywords };
    case 'class':
      return classSchema(shape.type, context);
    default:
      return { type: shape.kind, ...shape.keywords };
  }
}

function classSchema(type: ClassType, context: BuildContext): JsonSchema {
  if (!context.graph.recursive.has(type)) return objectSchema(type, context);
  if (type === context.root) return { $ref: '#' };
  let name = context.defNames.get(type);
  if (name === undefined) {
    name = uniqueName(type.name || 'Anonymous', context.defs);
    context.defNames.set(type, name);
    context.defs[name] = {}; // reserved first: the class's own fields refer back to it
    context.defs[name] = objectSchema(type, context);
  }
  return { $ref: `#/$defs/${name}` };
}

function enumType(values: readonly (string | number)[]): JsonSchema {
  if (values.every((value) => typeof value === 'string')) return { type: 'string' };
  if (values.every((value) => Number.isInteger(value))) return { type: 'integer' };
  return values.every((value) => typeof value === 'number') ? { type: 'number' } : {};
}

function uniqueName(base: string, taken: Record<string, JsonSchema>): string {
  let name = base;
  for (let n = 2; name in taken; n++) name = `${base}_${n}`;
  return name;
}
