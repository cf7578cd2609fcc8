import 'reflect-metadata';
import Ajv from 'ajv';
import fc from 'fast-check';
import { SCHEMA_PROFILES } from '../../../src/definitions/profiles/schema-profile';
import { schemaReport, type SchemaOmission } from '../../../src/definitions/profiles/schema-report';
import type { JsonSchema } from '../../../src/definitions/schema/json-schema';
import { toolsFrom } from '../../../src/definitions/tools-from';
import type { ToolDefinition } from '../../../src/toolCall/type';
import { buildTool, fieldsArb, valueArb } from '../generated-dtos';

/**
 * For each profile and generated DTO shapes (string lengths, patterns, numeric ranges, string and integer enums,
 * optional and nested fields, arrays with size bounds):
 * - the constraints of the full schema are exactly the ones the profile's schema carries plus the ones
 *   `schemaReport` lists for it, and no constraint is both;
 * - the profile's schema never refuses a value validation accepts (the constraints it carries agree);
 * - the profile's schema with the reported constraints put back accepts exactly what validation accepts, so
 *   nothing validation enforces is missing from both the schema and the report.
 * Excluded as in schema-validation-agreement.property.test.ts: `null` for an optional field outside strict mode,
 * and an optional field left out in strict mode.
 */

const SEED = 20261214;
const CONSTRAINTS = [
  'additionalProperties',
  '$ref',
  'enum',
  'default',
  'examples',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
] as const;

const ajv = new Ajv({ strict: false, allErrors: false });
const parametersOf = (tool: ToolDefinition): JsonSchema => tool.schema.function.parameters as JsonSchema;
const key = (path: string, keyword: string, value: unknown) => `${path} ${keyword} ${JSON.stringify(value)}`;

/** The branch of a strict-mode nullable wrapper that holds the field's own keywords. */
function unwrap(node: JsonSchema): JsonSchema {
  return node.anyOf?.find((branch) => branch.type !== 'null') ?? node;
}

/** Every constraint keyword of a schema, as `path keyword value`. */
function constraintsOf(schema: JsonSchema): Set<string> {
  const found = new Set<string>();
  const walk = (wrapped: JsonSchema, path: string): void => {
    const node = unwrap(wrapped);
    for (const keyword of CONSTRAINTS) if (node[keyword] !== undefined) found.add(key(path, keyword, node[keyword]));
    for (const [name, child] of Object.entries(node.properties ?? {})) walk(child, path ? `${path}.${name}` : name);
    if (node.items) walk(node.items, `${path}[]`);
  };
  walk(schema, '');
  return found;
}

/** A copy of `schema` with each reported keyword put back where the report says it was. */
function restore(schema: JsonSchema, omissions: readonly SchemaOmission[]): JsonSchema {
  const copy = structuredClone(schema);
  for (const { path, keyword, value } of omissions) {
    let node = unwrap(copy);
    for (const segment of path ? path.split('.') : []) {
      const [name, ...items] = segment.split('[]');
      if (name) node = unwrap(node.properties![name]);
      for (let i = 0; i < items.length; i++) node = unwrap(node.items!);
    }
    (node as Record<string, unknown>)[keyword] = value;
  }
  return copy;
}

describe.each(SCHEMA_PROFILES)("profile '%s': schema, report and validation agree", (profile) => {
  const strict = profile === 'openai-strict';

  it('for generated DTO shapes', () => {
    let accepted = 0;
    let refused = 0;
    let explained = 0;
    fc.assert(
      fc.property(
        fieldsArb(false, 2).chain((fields) =>
          fc.tuple(fc.constant(fields), fc.array(valueArb(fields, strict), { minLength: 3, maxLength: 3 })),
        ),
        ([fields, values]) => {
          const { tool, Tools } = buildTool(fields, { profile });
          const full = parametersOf(toolsFrom([new Tools()], { profile: 'openai' })[0]);
          const report = schemaReport([Tools], { profile });
          const carried = constraintsOf(parametersOf(tool));
          const reported = new Set(report.map((o) => key(o.path, o.keyword, o.value)));
          expect([...carried].filter((c) => reported.has(c))).toEqual([]);
          expect([...carried, ...reported].sort()).toEqual([...constraintsOf(full)].sort());

          const restored = restore(parametersOf(tool), report);
          for (const value of values) {
            const parsed = tool.parseParams!(JSON.stringify(value));
            const bySchema = ajv.validate(parametersOf(tool), value);
            const byRestored = ajv.validate(restored, value);
            const context = `${JSON.stringify(value)}\n${parsed.success ? '' : parsed.errorMessage}\n${JSON.stringify(tool.schema)}`;
            if (!bySchema && parsed.success) throw new Error(`the ${profile} schema refuses a valid value: ${context}`);
            if (byRestored !== parsed.success) {
              throw new Error(`schema + report ${byRestored}, validation ${parsed.success}: ${context}`);
            }
            if (parsed.success) accepted++;
            else refused++;
            if (bySchema && !parsed.success) explained++;
          }
        },
      ),
      { seed: SEED + SCHEMA_PROFILES.indexOf(profile), numRuns: 100 },
    );
    // Both verdicts are exercised (most generated values break one of several constraints).
    expect(accepted).toBeGreaterThan(25);
    expect(refused).toBeGreaterThan(100);
    // Profiles that leave constraints out see values only the report explains.
    if (profile !== 'openai') expect(explained).toBeGreaterThan(3);
    else expect(explained).toBe(0);
  });
});
