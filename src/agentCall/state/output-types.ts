/**
 * One problem a Standard Schema reports: its message, and where (`['items', 1, 'qty']`, or path segments
 * `{ key }` as Standard Schema v1 allows; absent for the whole value).
 *
 * Optional fields also take `undefined`, as the spec writes them: under `exactOptionalPropertyTypes` a schema from
 * Zod, Valibot or ArkType fits only then.
 */
export type StandardSchemaIssue = {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
};

/** What a Standard Schema's `validate` gives: the validated value, or the issues. */
export type StandardSchemaResult<T> =
  { readonly value: T; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/**
 * A Standard Schema v1 (`~standard.validate`) that also gives the JSON Schema the model is shown: Standard JSON
 * Schema v1 (`~standard.jsonSchema.input({ target })`, Zod 4, ArkType, Valibot's converter), or agentcall's own
 * `jsonSchema` field (`standardSchemaOf`). Declared here so the core needs no package for it.
 */
export type OutputStandardSchema<T> = {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardSchemaResult<T> | Promise<StandardSchemaResult<T>>;
    readonly jsonSchema?:
      { readonly input: (options: { readonly target: string }) => Record<string, unknown> } | undefined;
    readonly types?: { readonly input: unknown; readonly output: T } | undefined;
  };
  readonly jsonSchema?: object | undefined;
};

/** A class-validator DTO class: the final answer is validated into an instance of it. */
export type OutputClass<T> = new (...args: never[]) => T;

/** What `runAgentLoop({ output })` takes: a DTO class or a Standard Schema with a JSON Schema. */
export type OutputSpec<T> = (new (...args: never[]) => T) | OutputStandardSchema<T>;

/**
 * How the `output` schema reaches the model:
 * - `'json_schema'` (default): as the wire's structured-output format, `response_format: { type: 'json_schema' }`
 *   on Chat Completions, `text.format` on the Responses API, with every request of the run.
 * - `'instructions'`: written into the instructions (a system message) for providers without structured output;
 *   the answer is checked the same way.
 */
export type OutputMode = 'json_schema' | 'instructions';

/**
 * The JSON Schema dialect a tool's parameters (or a run's `output` schema) are written in, for the endpoint that will read them.
 *
 * - `'openai'` (default): the full schema agentcall builds, every constraint as a JSON Schema keyword.
 * - `'openai-strict'`: OpenAI structured outputs (`strict: true`): every property required, optional ones
 *   nullable, keywords strict mode refuses left out. `{ strict: true }` with `'openai'` gives the same schema.
 * - `'gemini'`: the OpenAPI 3.0 subset Gemini's function declarations accept (also behind its OpenAI-compatible
 *   endpoint): no `additionalProperties`, `$ref`, `examples`, exclusive bounds, `uniqueItems`, non-string enums.
 * - `'anthropic'`: the subset Anthropic's strict tool use accepts: no numeric, length or item-count bounds.
 * - `'lenient'`: types, properties, `required`, array items and string enums only, for OpenAI-compatible servers
 *   of unknown strictness.
 *
 * The `output` schema of `runAgentLoop` takes the same profiles (`outputProfile`): `'openai-strict'` sends
 * `strict: true`, the others `strict: false`.
 *
 * Validation is the same for every profile: a keyword a profile cannot carry is left out of its schema, stated in
 * the field's description instead, and listed by `schemaReport`.
 */
export type SchemaProfile = 'openai' | 'openai-strict' | 'gemini' | 'anthropic' | 'lenient';

/**
 * The `output` of a run made ready for the loop (by `runAgentLoop`'s output layer): the JSON Schema as the model
 * sees it and the Standard Schema that checks the answer.
 *
 * @internal
 */
export type OutputFormat = {
  /** The name the schema goes out under, matching `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** The JSON Schema as sent, already written for the profile. */
  readonly schema: Record<string, unknown>;
  readonly strict: boolean;
  readonly mode: OutputMode;
  /** Feedback rounds before `output_invalid`. */
  readonly retries: number;
  /** Checks a parsed answer: the Standard Schema's own `validate`, after any strict-form nulls were dropped. */
  readonly validate: (value: unknown) => StandardSchemaResult<unknown> | Promise<StandardSchemaResult<unknown>>;
};
