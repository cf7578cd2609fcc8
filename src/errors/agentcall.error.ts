const MARKER: unique symbol = Symbol.for('agentcall.error');

/**
 * The base of every error agentcall throws.
 *
 * Every error class names itself with a string in a static block (`static { this.defineName('MyError'); }`),
 * so its static `name`, the `name` of its instances, and {@link AgentcallError.isInstance} survive a minifier
 * that renames classes. `isInstance` also recognises an error from a second installed copy of the package,
 * where `instanceof` would fail.
 */
export abstract class AgentcallError extends Error {
  static {
    this.defineName('AgentcallError');
  }

  // The static names from the concrete class up to this base; a string list survives a second package copy.
  private readonly [MARKER]: readonly string[];

  protected constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    // new.target's static `name` is the string its static block defined, not the (minifiable) class identifier.
    this.name = new.target.name;
    this[MARKER] = lineageOf(new.target);
  }

  /**
   * Give an error class a `name` no minifier can rename. Call it in the class's static block; a subclass of
   * yours that does not keeps its class identifier as its name, as a plain `Error` subclass would.
   *
   * @example
   * class QuotaExceededError extends ToolDefinitionError {
   *   static {
   *     this.defineName('QuotaExceededError');
   *   }
   * }
   */
  protected static defineName(this: object, name: string): void {
    Object.defineProperty(this, 'name', { value: name, configurable: true });
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
    // Never throws: a thrown value may be a Proxy whose traps throw, and this runs on the path that handles it.
    try {
      const lineage = (error as { [MARKER]?: unknown })[MARKER];
      return Array.isArray(lineage) && lineage.includes(this.name);
    } catch {
      return false;
    }
  }
}

type NamedClass = { readonly name: string };

function lineageOf(target: NamedClass): string[] {
  const names: string[] = [];
  for (let current = target; current !== AgentcallError; current = Object.getPrototypeOf(current) as NamedClass) {
    names.push(current.name);
  }
  names.push(AgentcallError.name);
  return names;
}
