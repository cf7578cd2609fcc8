import { AgentcallError } from './agentcall.error';

/**
 * Thrown at NestJS bootstrap when a provider with `@Tool` methods is request-scoped or transient (or depends
 * on one): tools are bound to one instance when the application starts, and such a provider has none that
 * would be right for every run.
 */
export class UnsupportedToolScopeError extends AgentcallError {
  static {
    this.defineName('UnsupportedToolScopeError');
  }

  /** The offending provider classes. */
  readonly classNames: readonly string[];

  constructor(classNames: readonly string[]) {
    super(
      `agentcall binds tools to singleton providers, but these have @Tool methods and are request-scoped or transient ` +
        `(or depend on a request-scoped provider): ${classNames.join(', ')}. Make them default-scoped singletons and pass ` +
        `per-request data through the tool's arguments or through a closure-built ToolDefinition.`,
    );
    this.classNames = classNames;
  }
}
