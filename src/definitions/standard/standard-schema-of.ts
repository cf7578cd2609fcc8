import { ToolDefinitionError, type ToolDefinitionProblem } from '../../errors/tool-definition.error';
import type { ClassType } from '../../metadata/options';
import { getClassTools } from '../get-class-tools';
import { collectClassGraph } from '../model/collect-class-graph';
import { getClassModel } from '../model/get-class-model';
import { isDtoClass } from '../model/is-dto-class';
import { buildParametersSchema } from '../schema/build-parameters-schema';
import type { JsonSchema } from '../schema/json-schema';
import { validateValue } from '../validation/validate-value';
import type { AgentcallStandardSchema, StandardJsonSchemaTarget } from './standard-schema.types';

const ofClass = new WeakMap<ClassType, AgentcallStandardSchema<object>>();
const ofMethod = new WeakMap<ClassType, Map<string, AgentcallStandardSchema<Record<string, unknown>>>>();

/**
 * A class-validator DTO, or the parameters of a decorated `@Tool` method, as a Standard Schema v1 object
 * (`~standard.validate`, vendor `'agentcall'`) that also implements Standard JSON Schema v1
 * (`~standard.jsonSchema.input`) and carries the JSON Schema as `jsonSchema`. One DTO then feeds the AI SDK's
 * `tool()`, OpenAI Agents JS' `tool()` or an MCP server without a second schema.
 *
 * Built from the same metadata and the same validation pipeline as `toolsFrom` (so the verdict is the one a
 * model's call gets), once per class. `validate` never changes the value it is given and resolves to the
 * validated class instance, or to issues with paths (`['items', 1, 'qty']`).
 *
 * Throws {@link ToolDefinitionError} for the problems `toolsFrom` would report (a field whose type cannot be
 * reflected, an unknown method).
 *
 * @example
 * const schema = standardSchemaOf(BookingDto);
 * schema['~standard'].validate({ from: 'OSL' }); // { issues: [{ message: 'to is required', path: ['to'] }] }
 * const args = standardSchemaOf(WeatherTools, 'getWeather'); // the inline @Param parameters as one object
 */
export function standardSchemaOf<T extends object>(dto: ClassType<T>): AgentcallStandardSchema<T>;
export function standardSchemaOf<T extends object>(
  toolClass: ClassType<T>,
  methodName: Extract<keyof T, string>,
): AgentcallStandardSchema<Record<string, unknown>>;
export function standardSchemaOf(type: ClassType, methodName?: string): AgentcallStandardSchema<object> {
  if (!isDtoClass(type)) {
    throw new ToolDefinitionError([{ className: String(type), message: 'standardSchemaOf needs a class' }]);
  }
  return methodName === undefined ? schemaOfClass(type) : schemaOfMethod(type, methodName);
}

function schemaOfClass(type: ClassType): AgentcallStandardSchema<object> {
  const cached = ofClass.get(type);
  if (cached) return cached;
  const graph = collectClassGraph(type);
  const problems: ToolDefinitionProblem[] = graph.classes.flatMap((cls) =>
    getClassModel(cls).problems.map(({ propertyName, message }) => ({
      className: type.name,
      message: `${cls.name}.${propertyName}: ${message}`,
    })),
  );
  if (problems.length > 0) throw new ToolDefinitionError(problems);
  const schema = createStandardSchema(type, buildParametersSchema(graph));
  ofClass.set(type, schema);
  return schema;
}

function schemaOfMethod(type: ClassType, methodName: string): AgentcallStandardSchema<Record<string, unknown>> {
  let byName = ofMethod.get(type);
  const cached = byName?.get(methodName);
  if (cached) return cached;
  const tool = getClassTools(type).tools.find((blueprint) => blueprint.methodName === methodName);
  if (!tool) throw new ToolDefinitionError([{ className: type.name, methodName, message: 'is not a @Tool method' }]);
  if (tool.problems.length > 0) throw new ToolDefinitionError(tool.problems);
  const schema = createStandardSchema(
    tool.argsClass as ClassType<Record<string, unknown>>,
    tool.schemaFor('openai').schema.function.parameters as JsonSchema,
  );
  if (!byName) ofMethod.set(type, (byName = new Map<string, AgentcallStandardSchema<Record<string, unknown>>>()));
  byName.set(methodName, schema);
  return schema;
}

function createStandardSchema<T extends object>(
  argsClass: ClassType<T>,
  jsonSchema: JsonSchema,
): AgentcallStandardSchema<T> {
  const toTarget = (options: { readonly target: StandardJsonSchemaTarget }): Record<string, unknown> =>
    forTarget(jsonSchema, options?.target);
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'agentcall' as const,
      validate: (value: unknown) => validateValue(argsClass, value),
      jsonSchema: Object.freeze({ input: toTarget, output: toTarget }),
    }),
    jsonSchema,
  });
}

/**
 * A fresh copy for each caller (consumers rewrite what they are given). The schema only uses keywords both
 * drafts share, except `$defs`, which draft-07 spells `definitions`.
 */
function forTarget(schema: JsonSchema, target: StandardJsonSchemaTarget | undefined): Record<string, unknown> {
  if (target === undefined || target === 'draft-2020-12') return structuredClone(schema);
  if (target === 'draft-07') return toDraft07(schema);
  throw new Error(`agentcall cannot produce JSON Schema for the target "${target}"; use "draft-2020-12" or "draft-07"`);
}

function toDraft07(schema: JsonSchema): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$defs') copy.definitions = mapValues(value as Record<string, JsonSchema>);
    else if (keyword === 'properties') copy.properties = mapValues(value as Record<string, JsonSchema>);
    else if (keyword === '$ref') copy.$ref = (value as string).replace(/^#\/\$defs\//, '#/definitions/');
    else if (keyword === 'items') copy.items = toDraft07(value as JsonSchema);
    else if (keyword === 'anyOf') copy.anyOf = (value as JsonSchema[]).map(toDraft07);
    else copy[keyword] = structuredClone(value);
  }
  return copy;
}

function mapValues(schemas: Record<string, JsonSchema>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toDraft07(schema)]));
}
