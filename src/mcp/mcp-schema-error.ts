import { AgentcallError } from '../index';

/** Why a remote tool's input schema is not used (see {@link McpSchemaError}). */
export type McpSchemaProblem = 'too_large' | 'over_cap' | 'recursive' | 'not_compilable';

/**
 * A remote tool's input schema that `mcpTools` will not use: over a size or content cap, recursive without end
 * (`$ref: '#'` reached without descending into the arguments), or one Ajv cannot compile (a `pattern` the
 * linear-time engine does not accept included). The tool is still returned, with an empty parameter schema, and
 * every call of it is answered with this error's message (`Tool error: …`, the error itself in
 * `RunToolResult.error`) without reaching the server.
 */
export class McpSchemaError extends AgentcallError {
  static {
    this.defineName('McpSchemaError');
  }

  /** The tool's name, as the model knows it (`prefix` and all). */
  readonly toolName: string;
  /** What is wrong with its schema. */
  readonly problem: McpSchemaProblem;

  constructor(toolName: string, problem: McpSchemaProblem, detail: string) {
    super(`The input schema of remote tool "${toolName.slice(0, 200)}" cannot be used, so it is not called: ${detail}`);
    this.toolName = toolName;
    this.problem = problem;
  }
}
