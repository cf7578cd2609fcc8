import { AgentcallError } from '../index';

/**
 * Thrown by `ToolRegistry.resolveTools` (`agentcall/nestjs`) when a request-scoped or transient provider with
 * `@Tool` methods cannot be resolved for a run's Nest context; `cause` holds what Nest threw.
 *
 * Such providers used to be refused when the application started; they are now resolved per run, and this error
 * is thrown only when that resolution fails.
 */
export class UnsupportedToolScopeError extends AgentcallError {
  static {
    this.defineName('UnsupportedToolScopeError');
  }

  /** The providers that could not be resolved. */
  readonly classNames: readonly string[];

  constructor(classNames: readonly string[], options?: ErrorOptions) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(
      `agentcall could not resolve the request-scoped or transient tool provider ${classNames.join(', ')} for this ` +
        `run's context${reason}`,
      options,
    );
    this.classNames = classNames;
  }
}
