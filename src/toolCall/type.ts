import type {
  ChatCompletionCustomTool,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  UsageItem,
} from '../llm/type';

/**
 * The outcome of a tool's parse phase: typed data, or the text the model reads to correct its call.
 */
export type ToolParseResult<P> = { success: true; data: P } | { success: false; errorMessage: string };

/** What `execute` receives for one tool call. */
export type ToolExecuteContext<P = unknown> = {
  /**
   * The raw call as the model sent it. A custom tool's call comes in this shape too, its raw input in
   * `function.arguments` (the history keeps it as the model sent it, `{ type: 'custom', custom: { name, input } }`).
   */
  call: ChatCompletionMessageToolCall;
  /** The request messages of the turn that produced this call (a snapshot taken before the assistant message). */
  messages: ChatCompletionMessageParam[];
  /** The output of `parseParams`. */
  params: P;
  /** Aborted when the run is aborted or the tool's `timeoutMs` passes; hand it to fetch, child processes, etc. */
  signal: AbortSignal;
  /**
   * Who the run acts for (a user, a tenant, auth claims): the `caller` given to `runAgentLoop` or `runTool`.
   * Never sent to the model, so the model cannot forge it.
   */
  caller?: unknown;
  /**
   * `${runId}:${call.id}` when the call runs inside `runAgentLoop`: the same on every retry or resume of the
   * call, so hand it to payment, mail and other external APIs that deduplicate requests.
   */
  idempotencyKey?: string;
  /**
   * The run this call belongs to, as a tool that starts a nested run (an agent from `defineAgent`) reads it: the
   * parent's client, model, tracer and where its events, pauses and spend go. Opaque to every other tool.
   *
   * @internal
   */
  nest?: object;
  /**
   * Report how far the tool has got: an MCP client that asked for progress gets a progress notification, and
   * `runAgentLoop` calls its `onToolProgress` hook. Set by `runTool` whenever it runs a tool (optional only so that
   * hand-built contexts stay valid): call it as `ctx.progress?.(…)`.
   *
   * @example ctx.progress({ progress: done, total: files.length, message: `indexed ${name}` });
   */
  progress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Log to an MCP client (`notifications/message`, filtered by the level it set). Does nothing elsewhere.
   *
   * @example ctx.log('info', { indexed: name });
   */
  log?: (
    level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency',
    data: unknown,
  ) => void;
  /**
   * The person's answer when the tool runs again after asking (it returned `interactive`, or needed approval): an
   * MCP client's elicitation result, or a `{ answer }` decision of the loop. Absent on a call's first run.
   *
   * @example if (ctx.answer?.action === 'accept') return book(ctx.answer.content?.seat);
   */
  answer?: {
    action: 'accept' | 'decline' | 'cancel';
    /** The form's values, when accepted. */
    content?: Record<string, unknown>;
  };
  /**
   * What this call kept when it asked (its result's `resumeData`), handed back with `ctx.answer` when the loop runs
   * it again. Absent on a call's first run.
   */
  resumeData?: unknown;
};

/** What `ctx.progress` reports: `progress` grows with each report; `total` when it is known. */
export type ToolProgress = Parameters<NonNullable<ToolExecuteContext['progress']>>[0];

/** When a failed call runs again (`ToolDefinition.retry`). */
export type ToolRetry = NonNullable<ToolDefinition['retry']>;

/** Corrects a call's arguments (`ToolDefinition.repairArguments`, or the run's). */
export type RepairArguments = NonNullable<ToolDefinition['repairArguments']>;

/** What a `repairArguments` function is given: a call whose arguments failed to parse or validate. */
export type RepairArgumentsInput = Parameters<RepairArguments>[0];

/** The levels of `ctx.log` (syslog's, as MCP uses them). */
export type ToolLogLevel = Parameters<NonNullable<ToolExecuteContext['log']>>[0];

/** A person's answer to what a tool asked (MCP's elicitation result): accepted with content, declined or cancelled. */
export type ToolInputAnswer = NonNullable<ToolExecuteContext['answer']>;

/** What a `needsApproval` predicate sees: the call and its validated arguments. */
export type ToolApprovalContext<P = unknown> = {
  call: ChatCompletionMessageToolCall;
  params: P;
};

/**
 * What a tool needs from the user before it can finish (a question, a form, a choice).
 * Opaque to the loop: it is handed back in `interactiveResponse` and persisted by the caller.
 */
export type ToolInteractive = NonNullable<ToolExecuteResult['interactive']>;

/** What a tool hands back to the loop. */
export type ToolExecuteResult = {
  /** The text of the `role: 'tool'` message the model reads. */
  response: string;
  /** Messages produced inside the tool (a sub-agent's answer): returned to the caller, never sent to the model. */
  assistantMessages?: ChatCompletionMessageParam[];
  /** Billable items produced by the tool; pushed through `usagePush`. */
  usages?: UsageItem[];
  /** Pause the loop and ask the user; resumed later with `childrenInteractiveParams`. */
  interactive?: { type: string; [key: string]: unknown };
  /**
   * With `interactive`: JSON data the loop keeps with the paused call in `state.pending` (signed with the state,
   * never shown to the person or the model) and hands back as `ctx.resumeData` when a `{ answer: { action } }`
   * decision runs the call again: what the tool needs to go on where it stopped (a remote server's `requestState`).
   */
  resumeData?: unknown;
  /** End the loop after this turn's tool calls. */
  stop?: boolean;
  /**
   * What an MCP client gets besides the text (images, audio, resources, links: see `toolResult.image` and
   * friends); the model reads `response`, which describes them.
   */
  content?: (
    | { type: 'text'; text: string }
    | { type: 'image'; data: string; mimeType: string }
    | { type: 'audio'; data: string; mimeType: string }
    | {
        type: 'resource';
        /** A resource embedded in a result: its text, or its bytes as base64 (`blob`). */
        resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
      }
    | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string }
  )[];
  /** The result as an object, for an MCP client (`structuredContent`), when the tool declares an `outputSchema`. */
  structuredContent?: Record<string, unknown>;
};

/** One part of a result's `content`, in MCP's shapes. */
export type ToolContentPart = NonNullable<ToolExecuteResult['content']>[number];

/** A resource embedded in a result: its text, or its bytes as base64 (`blob`). */
export type ToolEmbeddedResource = Extract<ToolContentPart, { type: 'resource' }>['resource'];

/**
 * How a tool call ended, as data (the text the model reads is in `response`):
 *
 * - `ok`: the tool ran and returned
 * - `not_found`: no tool has that name
 * - `invalid_arguments`: the arguments did not parse or validate; the tool did not run
 * - `error`: the tool (or its parser) threw or rejected
 * - `timeout`: the tool's `timeoutMs` passed; its signal was aborted
 * - `aborted`: the run was aborted (or timed out) while the call waited or ran
 * - `rejected`: someone with the say refused the call (an approval or a guard); the tool did not run
 * - `skipped`: the call was never started, because an earlier call of its turn paused or ended the run,
 *   or the run was aborted first
 */
export type ToolOutcome =
  'ok' | 'not_found' | 'invalid_arguments' | 'error' | 'timeout' | 'aborted' | 'rejected' | 'skipped';

/**
 * What `runTool` resolves to: the tool's result, how the call ended, and, when it failed, the raw value
 * behind it (the thrown value, the parse failure's message, a timeout or abort error) for logs. The model
 * only ever reads `response`, which carries no stack trace or secret; `error` is unmasked, so keep it out
 * of anything sent to a model or a user.
 */
export type RunToolResult = ToolExecuteResult & {
  outcome: ToolOutcome;
  error?: unknown;
  /** How many times the tool ran for this call, when its `retry` let it run more than once. */
  attempts?: number;
  /** What each failed run before the last threw (with `retry`), oldest first; unmasked, for logs. */
  attemptErrors?: unknown[];
  /** The arguments the call ran with, when `repairArguments` corrected the model's (JSON text, as validated). */
  repairedArguments?: string;
};

/**
 * A tool: the schema the model sees, how its arguments are parsed, and what it does.
 * A hand-written definition and one built from decorators are indistinguishable to `runTool` and `runAgentLoop`.
 *
 * `S` is the kind of schema: a function tool (the default, JSON arguments) or a custom tool
 * (`ToolDefinition<string, ChatCompletionCustomTool>`, free-form text input, optionally held to a grammar), whose
 * `parseParams` gets the raw input text as the model wrote it.
 *
 * @example
 * const shell: ToolDefinition<string, ChatCompletionCustomTool> = {
 *   schema: { type: 'custom', custom: { name: 'shell', description: 'Run one shell command' } },
 *   execute: async ({ params }) => ({ response: await run(params) }),
 * };
 */
// `any` as in the seed: a `ToolDefinition<Params>` list must be assignable to `ToolDefinition[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolDefinition<P = any, S extends ChatCompletionTool | ChatCompletionCustomTool = ChatCompletionTool> = {
  /**
   * The schema sent to the model: `schema.function.name` is a function tool's name, `schema.custom.name` a custom
   * tool's.
   */
  schema: S;
  /**
   * Parse and validate the raw arguments; without it, `parseJsonArgs` turns them into a plain object, and
   * arguments past the default size, depth or key caps are refused before the tool runs. A custom tool's gets its
   * raw input (no JSON read); without it the tool's `params` is that text, refused past the default size cap.
   */
  parseParams?: (rawArgs: string) => ToolParseResult<P>;
  /** Run the tool. Whatever it throws becomes a `Tool error: …` response. */
  execute: (ctx: ToolExecuteContext<P>) => Promise<ToolExecuteResult>;
  /** Abort the tool's signal and answer the model with a timeout message after this many milliseconds. */
  timeoutMs?: number;
  /**
   * Running a call again changes nothing more than running it once (a lookup, or a write the external API
   * deduplicates by `ctx.idempotencyKey`). Required for `retry`: `runAgentLoop` refuses a tool with `retry` and
   * without it (`ToolDefinitionError`), as a blind retry of a payment pays twice.
   */
  idempotent?: boolean;
  /**
   * Most calls of this tool in flight at once within a run (a rate-limited API): with `toolConcurrency` above it,
   * other tools' calls run beside them. Tool messages stay in call order.
   */
  concurrency?: number;
  /**
   * Run a failed call again; only with `idempotent: true`: every run of the call gets the same
   * `ctx.idempotencyKey`, so an external API that deduplicates by it does the work once.
   */
  retry?: {
    /** How many times a call may run in all, the first run included (2: one retry). */
    attempts: number;
    /** The wait before the second run, in milliseconds, doubled before each later one (default 0: at once). */
    backoffMs?: number;
    /**
     * Whether a failure is worth another run, given what the tool threw (a `ToolTimeoutError` for a timeout).
     * Default: every thrown error and every timeout; a refusal (`ToolCallRejectedError`) or an abort never runs again.
     */
    retryOn?: (error: unknown) => boolean;
  };
  /**
   * Correct arguments that failed to parse or validate: return them as JSON text, or nothing to leave the call
   * invalid. Called at most once per call, and what it returns is parsed and validated again before the tool runs,
   * so a tool never runs with arguments that were not validated; the model reads that its arguments were repaired.
   * Overrides the run's `repairArguments`.
   */
  repairArguments?: (input: {
    /** The arguments as the model sent them. */
    raw: string;
    /** The problems the model would read, one per entry, each naming its field (`city: city must be a string`). */
    issues: string[];
    /** The tool the call named, as the model was shown it. */
    tool: { name: string; description?: string; parameters?: Record<string, unknown> };
  }) => string | undefined | Promise<string | undefined>;
  /**
   * Ask a person before running a call (after its arguments are validated): `true`, or a predicate over the
   * call and its params. Inside `runAgentLoop` such a call becomes a `pending` entry of the run state and
   * runs only once approved through `decisions`.
   */
  needsApproval?: boolean | ((ctx: ToolApprovalContext<P>) => boolean | Promise<boolean>);
  /**
   * Keep the tool out of the model's requests until it is found: `runAgentLoop` then offers a `search_tools` tool
   * that ranks the deferred tools by name and description and makes those it finds visible from the next request
   * on. For large tool sets (an MCP server's hundreds). A call to a deferred tool by name runs it (and finds it).
   */
  deferred?: boolean;
  /**
   * The name and description come from outside the app (`mcpTools` sets it): `search_tools` ranks a tool without it
   * before every remote one for a word of the query it holds as it is, so a remote description stuffed with
   * keywords cannot push a local tool out of the answer for its own words.
   */
  remote?: boolean;
  /** A name for people (an MCP client's UI); the model reads `schema.function.name`. */
  title?: string;
  /** Hints an MCP client may show or act on (MCP's tool annotations); none of them is a guarantee. */
  annotations?: {
    /** The tool only reads. */
    readOnlyHint?: boolean;
    /** The tool may destroy or overwrite (meaningful when it is not read-only). */
    destructiveHint?: boolean;
    /** Calling it again with the same arguments changes nothing more. */
    idempotentHint?: boolean;
    /** The tool reaches outside systems (the web, other people's data). */
    openWorldHint?: boolean;
  };
  /** The JSON Schema of the result's `structuredContent`, served to MCP clients as the tool's `outputSchema`. */
  outputSchema?: Record<string, unknown>;
  /** Served to MCP clients as a long task (`@Tool({ task: true })`): a call returns a task that `tasks/get` polls. */
  task?: boolean;
};

/**
 * Any tool `runAgentLoop` and `runTool` take: a function tool or a custom tool, whatever its params.
 *
 * @internal
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, ChatCompletionTool | ChatCompletionCustomTool>;

/** Hints an MCP client may show or act on: {@link ToolDefinition}'s `annotations`. */
export type ToolAnnotations = NonNullable<ToolDefinition['annotations']>;
