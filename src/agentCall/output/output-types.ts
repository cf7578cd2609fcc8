/**
 * One problem a Standard Schema reports: its message, and where (`['items', 1, 'qty']`, or path segments
 * `{ key }` as Standard Schema v1 allows; absent for the whole value).
 *
 * Optional fields also take `undefined`, as the spec writes them: under `exactOptionalPropertyTypes` a schema from
 * Zod, Valibot or ArkType fits only then.
 */
export type OutputIssue = {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
};

/** What a Standard Schema's `validate` gives: the validated value, or the issues. */
export type OutputValidationResult<T> =
  { readonly value: T; readonly issues?: undefined } | { readonly issues: ReadonlyArray<OutputIssue> };

/**
 * A Standard Schema v1 (`~standard.validate`) that also gives the JSON Schema the model is shown: Standard JSON
 * Schema v1 (`~standard.jsonSchema.input({ target })`, Zod 4, ArkType, Valibot's converter), or agentcall's own
 * `jsonSchema` field (`standardSchemaOf`). Declared here so the core needs no package for it.
 */
export type OutputStandardSchema<T> = {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => OutputValidationResult<T> | Promise<OutputValidationResult<T>>;
    readonly jsonSchema?:
      { readonly input: (options: { readonly target: string }) => Record<string, unknown> } | undefined;
    readonly types?: { readonly input: unknown; readonly output: T } | undefined;
  };
  readonly jsonSchema?: object | undefined;
};

/** A class-validator DTO class: the final answer is validated into an instance of it. */
export type OutputClass<T> = new (...args: never[]) => T;

/** What `runAgentLoop({ output })` takes: a DTO class or a Standard Schema with a JSON Schema. */
export type OutputSpec<T> = OutputClass<T> | OutputStandardSchema<T>;

/**
 * How the `output` schema reaches the model:
 * - `'json_schema'` (default): as the wire's structured-output format, `response_format: { type: 'json_schema' }`
 *   on Chat Completions, `text.format` on the Responses API, with every request of the run.
 * - `'instructions'`: written into the instructions (a system message) for providers without structured output;
 *   the answer is checked the same way.
 */
export type OutputMode = 'json_schema' | 'instructions';

/**
 * The schema profile the `output` schema is written for: the same names and rules as `toolsFrom`'s `profile`
 * (`SchemaProfile`). `'openai-strict'` sends `strict: true` with OpenAI's strict form (every property required,
 * optional ones nullable, `additionalProperties: false`); the others send `strict: false`, and a keyword a profile
 * cannot carry is stated in the field's description instead.
 */
export type OutputProfile = 'openai' | 'openai-strict' | 'gemini' | 'anthropic' | 'lenient';

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
  readonly validate: (value: unknown) => OutputValidationResult<unknown> | Promise<OutputValidationResult<unknown>>;
};
