const MARKER: unique symbol = Symbol.for('agentcall.error');

/**
 * The base of every error agentcall throws.
 *
 * `name` is the concrete class name, and {@link AgentcallError.isInstance} recognises an error across two
 * installed copies of the package, where `instanceof` would fail.
 */
export abstract class AgentcallError extends Error {
  // The class names from the concrete error up to this base; a string list survives a second package copy.
  private readonly [MARKER]: readonly string[];

  protected constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this[MARKER] = lineageOf(new.target);
  }

  /**
   * Whether `error` is an instance of the class this is called on, even when it comes from another copy of agentcall.
   *
   * @example
   * if (ToolDefinitionError.isInstance(error)) console.error(error.problems);
   */
  static isInstance<T extends AgentcallError>(
    this: { readonly prototype: T; readonly name: string },
    error: unknown,
  ): error is T {
    if (typeof error !== 'object' || error === null) return false;
    const lineage = (error as { [MARKER]?: unknown })[MARKER];
    return Array.isArray(lineage) && lineage.includes(this.name);
  }
}

function lineageOf(target: Function): string[] {
  const names: string[] = [];
  for (let current = target; current !== AgentcallError; current = Object.getPrototypeOf(current)) {
    names.push(current.name);
  }
  names.push(AgentcallError.name);
  return names;
}
