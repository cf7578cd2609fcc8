import type { JsonSchema } from '../schema/json-schema';

/**
 * One validation problem, in Standard Schema v1's shape: the message and where it is
 * (`['items', 1, 'qty']` for `items[1].qty`; absent for a problem with the whole value).
 */
export type StandardSchemaIssue = {
  readonly message: string;
  readonly path?: readonly PropertyKey[];
};

/** The result of `~standard.validate`: the validated value, or the issues. */
export type StandardSchemaResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaIssue[] };

/** The JSON Schema dialects `~standard.jsonSchema` can produce. */
export type StandardJsonSchemaTarget = 'draft-2020-12' | 'draft-07' | (string & Record<never, never>);

/**
 * The `~standard` property of {@link AgentcallStandardSchema}: Standard Schema v1 (`validate`) and Standard
 * JSON Schema v1 (`jsonSchema.input` / `jsonSchema.output`), the two interfaces the AI SDK, OpenAI Agents JS and
 * the MCP SDK read. Declared here rather than imported so the core needs no package for it; the shapes are the
 * published spec's.
 */
export type AgentcallStandardProps<Output> = {
  readonly version: 1;
  readonly vendor: 'agentcall';
  readonly validate: (value: unknown) => StandardSchemaResult<Output>;
  readonly jsonSchema: {
    readonly input: (options: { readonly target: StandardJsonSchemaTarget }) => Record<string, unknown>;
    readonly output: (options: { readonly target: StandardJsonSchemaTarget }) => Record<string, unknown>;
  };
  readonly types?: { readonly input: Record<string, unknown>; readonly output: Output };
};

/**
 * A DTO (or a decorated tool's parameters) as a Standard Schema: hand it to any library that accepts one
 * (`tool({ inputSchema })` in the AI SDK, `tool({ parameters })` in OpenAI Agents JS).
 */
export type AgentcallStandardSchema<Output> = {
  readonly '~standard': AgentcallStandardProps<Output>;
  /** The JSON Schema the model is shown: the same one `toolsFrom` puts in `schema.function.parameters`. */
  readonly jsonSchema: JsonSchema;
};
