import type { ClassRef, ToolOptions } from './options';

/** What `@Tool` records for one method. */
export type ToolMetadata = {
  /** The class that declares the method. */
  readonly target: ClassRef;
  readonly methodName: string;
  /** The tool name (the method name unless `name` was given). */
  readonly name: string;
  readonly description?: string;
  readonly strict?: boolean;
  readonly timeoutMs?: number;
  readonly idempotent?: boolean;
  readonly concurrency?: number;
  readonly retry?: ToolOptions['retry'];
  readonly repairArguments?: ToolOptions['repairArguments'];
  readonly needsApproval?: ToolOptions['needsApproval'];
  readonly deferred?: boolean;
  readonly title?: string;
  readonly annotations?: ToolOptions['annotations'];
  readonly output?: ToolOptions['output'];
  readonly task?: boolean;
};
