import type { ClassRef } from '../../metadata/options';
import { classOf } from '../../metadata/class-chain';
import { getClassTools } from '../get-class-tools';
import { resolveProfile, SCHEMA_PROFILES, type SchemaProfile } from './schema-profile';

/**
 * Every keyword each profile leaves out of each tool's schema, so a team can see before deploying what a model
 * behind that profile is not told by the schema (it is stated in the field's description instead, and validation
 * still enforces it). Takes the instances given to `toolsFrom`, or their classes; a tool's own `@Tool({ strict })`
 * is honoured. Tools are listed in class order, profiles in `SCHEMA_PROFILES` order.
 *
 * @example
 * for (const o of schemaReport([WeatherTools], { profile: 'gemini' })) console.log(`${o.tool} ${o.path}: ${o.keyword}`);
 * // forecast days: exclusiveMinimum
 */
export function schemaReport(
  targets: readonly object[],
  options: {
    /** The profiles to report on. Default: every profile. */
    profile?: SchemaProfile | readonly SchemaProfile[];
    /** The `strict` default the tools are built with (as in `toolsFrom`'s options). */
    strict?: boolean;
  } = {},
): {
  /** The tool's name, as the model knows it. */
  readonly tool: string;
  readonly profile: SchemaProfile;
  /** The field: `''` for the arguments object, `address.zip` for a nested field, `tags[]` for an array's items. */
  readonly path: string;
  /** The JSON Schema keyword left out (`maximum`, `additionalProperties`, `$ref`, …). */
  readonly keyword: string;
  /** Its value in the full schema. */
  readonly value: unknown;
  /** What the field's description says instead; absent when nothing is said (`additionalProperties: false`). */
  readonly statedAs?: string;
}[] {
  const profiles = options.profile === undefined ? SCHEMA_PROFILES : [options.profile].flat();
  const report: SchemaOmission[] = [];
  for (const target of targets) {
    const type = typeof target === 'function' ? (target as ClassRef) : classOf(target);
    for (const tool of getClassTools(type).tools) {
      for (const profile of profiles) {
        const built = tool.schemaFor(resolveProfile(profile, tool.strict, options.strict));
        const name = built.schema.function.name;
        for (const { path, keyword, value, statedAs } of built.omissions) {
          report.push({ tool: name, profile, path, keyword, value, ...(statedAs !== undefined && { statedAs }) });
        }
      }
    }
  }
  return report;
}

/** Options of {@link schemaReport}: its second argument. */
export type SchemaReportOptions = NonNullable<Parameters<typeof schemaReport>[1]>;

/**
 * One keyword a profile left out of a tool's schema: the model is not told it by the schema, only by the
 * description (`statedAs`, when there is one); validation still enforces it.
 */
export type SchemaOmission = ReturnType<typeof schemaReport>[number];
