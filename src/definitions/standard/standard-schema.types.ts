import type { StandardSchemaIssue, StandardSchemaResult } from '../../agentCall/state/output-types';
import type { JsonSchema } from '../schema/json-schema';

// The issue and result shapes are the spec's, declared once beside the loop's `output` (which reads any Standard
// Schema): a DTO's schema and a run's output speak of one idea under one name.
export type { StandardSchemaIssue, StandardSchemaResult };

/**
 * A DTO (or a decorated tool's parameters) as a Standard Schema: hand it to any library that accepts one
 * (`tool({ inputSchema })` in the AI SDK, `tool({ parameters })` in OpenAI Agents JS).
 *
 * Its `~standard` property is Standard Schema v1 (`validate`) and Standard JSON Schema v1 (`jsonSchema.input` /
 * `jsonSchema.output`, for a `target` such as `'draft-2020-12'` or `'draft-07'`), the two interfaces the AI SDK,
 * OpenAI Agents JS and the MCP SDK read. Declared here rather than imported so the core needs no package for it;
 * the shapes are the published spec's.
 */
export type AgentcallStandardSchema<Output> = {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'agentcall';
    readonly validate: (value: unknown) => StandardSchemaResult<Output>;
    readonly jsonSchema: {
      readonly input: (options: {
        readonly target: 'draft-2020-12' | 'draft-07' | (string & Record<never, never>);
      }) => Record<string, unknown>;
      readonly output: (options: {
        readonly target: 'draft-2020-12' | 'draft-07' | (string & Record<never, never>);
      }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: Record<string, unknown>; readonly output: Output };
  };
  /** The JSON Schema the model is shown: the same one `toolsFrom` puts in `schema.function.parameters`. */
  readonly jsonSchema: JsonSchema;
};

/** The `~standard` property of {@link AgentcallStandardSchema}. */
export type AgentcallStandardProps<Output> = AgentcallStandardSchema<Output>['~standard'];

/** The JSON Schema dialects `~standard.jsonSchema` can produce (`'draft-2020-12'`, `'draft-07'`, …). */
export type StandardJsonSchemaTarget = Parameters<AgentcallStandardProps<unknown>['jsonSchema']['input']>[0]['target'];
