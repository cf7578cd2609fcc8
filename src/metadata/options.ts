/** A class agentcall can instantiate: a DTO, or the class behind `type: () => X`. */
export type ClassType<T = object> = new (...args: never[]) => T;

/** Any class, abstract or not, as a decorator sees it (`prototype.constructor`). */
export type ClassRef = abstract new (...args: never[]) => unknown;

/**
 * What a `type: () => …` thunk returns: `String`, `Number`, `Boolean`, a DTO class, or `[X]` for an array of X.
 *
 * A thunk, not a value, so a DTO may refer to a class declared further down the file (or to itself).
 */
export type TypeSpec = StringConstructor | NumberConstructor | BooleanConstructor | ClassType | readonly [TypeSpec];

/** Options of `@Tool`. */
export type ToolOptions = {
  /** The name the model calls; defaults to the method name. Must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name?: string;
  /** What the tool does and when to use it; the model reads this to choose tools. */
  description?: string;
  /** OpenAI strict mode for this tool; overrides the `strict` default given to `toolsFrom`. */
  strict?: boolean;
  /** Abort the tool's signal and answer the model with a timeout message after this many milliseconds. */
  timeoutMs?: number;
  /**
   * Running a call twice changes nothing more than running it once (a lookup, or a write the external API
   * deduplicates by `ctx.idempotencyKey`). Required for `retry`: `toolsFrom` refuses `retry` without it.
   */
  idempotent?: boolean;
  /** Most calls of this tool in flight at once within a run (a rate-limited API); other tools' calls run beside. */
  concurrency?: number;
  /**
   * Run a failed call again, with the same `ctx.idempotencyKey` (only with `idempotent: true`): `attempts` counts
   * every run, the first included; `backoffMs` is the wait before the second, doubled before each later one;
   * `retryOn` chooses the failures worth another run (default: every error and timeout). The type is
   * `ToolRetry`'s, spelled out here (a type test keeps the two equal).
   *
   * @example @Tool({ idempotent: true, retry: { attempts: 3, backoffMs: 200 } })
   */
  retry?: { attempts: number; backoffMs?: number; retryOn?: (error: unknown) => boolean };
  /**
   * Correct arguments that failed to parse or validate, once per call: return JSON text (validated again before
   * the method runs) or nothing. The type is `RepairArguments`'s, spelled out here (a type test keeps them equal).
   */
  repairArguments?: (input: {
    raw: string;
    issues: string[];
    tool: { name: string; description?: string; parameters?: Record<string, unknown> };
  }) => string | undefined | Promise<string | undefined>;
  /**
   * Ask a person before each call runs: `true`, or a predicate over the call and its validated arguments. Inside
   * `runAgentLoop` such a call waits in the run state's `pending` until `decisions` approve or reject it.
   *
   * The predicate sees a `ToolApprovalContext`: its shape is spelled out here because metadata imports no layer
   * above it (a type test keeps the two equal).
   */
  needsApproval?:
    | boolean
    | ((ctx: {
        call: { id: string; type: 'function'; function: { name: string; arguments: string } };
        params: Record<string, unknown>;
      }) => boolean | Promise<boolean>);
  /**
   * Keep the tool out of the model's requests until the model finds it with `search_tools` (or calls it by name);
   * see `ToolDefinition.deferred`. For classes with many tools the model rarely needs.
   */
  deferred?: boolean;
  /** A name for people, shown by MCP clients; the model reads `name`. */
  title?: string;
  /**
   * Hints MCP clients may show or act on: `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`.
   *
   * @example @Tool({ annotations: { readOnlyHint: true, openWorldHint: false } })
   */
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  /**
   * The class of the object the method returns: MCP clients get its JSON Schema as the tool's `outputSchema` and
   * each result as `structuredContent` (the model reads the same object as JSON).
   */
  output?: ClassType;
  /**
   * Serve the tool to MCP clients as a long task: a call may return a task at once, polled with `tasks/get` until
   * its result is ready (a 2025-11-25 client sees `execution.taskSupport: 'optional'`; a 2026-07-28 client that
   * declares the `io.modelcontextprotocol/tasks` extension gets `resultType: 'task'`). In `runAgentLoop` nothing
   * changes.
   */
  task?: boolean;
};

/** Options of `@Param`, on a method parameter or on a DTO property. */
export type ParamOptions = {
  /** Shown to the model next to the field. */
  description?: string;
  /** The model may leave the field out (adds `@IsOptional()`); nulls it sends for the field are dropped. */
  optional?: boolean;
  /**
   * The field's type when reflection cannot tell it: arrays (`() => [String]`), unions and interfaces
   * (which reflect as `Object`), or a DTO class declared later.
   */
  type?: () => TypeSpec;
  /** Allowed values: a list, or a TypeScript `enum` object (adds `@IsIn(values)`). */
  enum?: readonly (string | number)[] | Readonly<Record<string, string | number>>;
  /** Example values, shown to the model as JSON Schema `examples`. */
  examples?: readonly unknown[];
  /**
   * The value used when the model leaves the field out (or sends `null` for it). Shown to the model as JSON
   * Schema `default`; the field is optional to the model. A copy is made for every call.
   */
  default?: unknown;
};

/**
 * Where completions for one argument come from: fixed values (filtered by the typed prefix), or a function of the
 * typed value and the arguments already given.
 */
export type ArgumentCompleter = NonNullable<ResourceOptions['complete']>[string];

/** Options of `@Resource`: a fixed `uri`, or a `uriTemplate` (RFC 6570) whose variables the method receives. */
export type ResourceOptions = {
  /** A name for people (`title`). */
  title?: string;
  /** What it holds or does; hosts show it. */
  description?: string;
  /** Completions per argument (prompt argument or template variable), beside those from a DTO field's `enum`. */
  complete?: Readonly<
    Record<
      string,
      | readonly string[]
      | ((
          value: string,
          context: { arguments: Readonly<Record<string, string>> },
        ) => readonly string[] | Promise<readonly string[]>)
    >
  >;
  /** The resource's name; defaults to the method name. */
  name?: string;
  /** The media type of what the method returns (`text/plain` when it returns a string and none is given). */
  mimeType?: string;
} & ({ uri: string; uriTemplate?: never } | { uriTemplate: string; uri?: never });

/** Options of `@Prompt`: a title, description and completions as for `@Resource`. */
export type PromptOptions = Pick<ResourceOptions, 'title' | 'description' | 'complete'> & {
  /** The prompt's name; defaults to the method name. */
  name?: string;
  /** The DTO the prompt's arguments are validated against; the method receives the validated instance. */
  arguments?: ClassType;
};

/** What `@Resource` and `@Prompt` share: how hosts show them, and completions for their arguments. */
export type McpMemberOptions = Pick<PromptOptions, 'title' | 'description' | 'complete'>;
