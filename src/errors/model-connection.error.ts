import { APIConnectionError } from 'openai';

const BRAND: unique symbol = Symbol.for('agentcall.ModelConnectionError');
const NAME = 'ModelConnectionError';
/** The SDK's own message, which says nothing the name does not. */
const SDK_MESSAGE = 'Connection error.';
const MAX_CAUSES = 4;
const MAX_CAUSE_CHARS = 200;

/** The `APIConnectionError` class of one openai module (its CommonJS and ESM builds each have their own). */
export type APIConnectionErrorClass = new (options: { message?: string; cause?: Error }) => Error;

/**
 * Returned as `error` when the model endpoint could not be reached (a wrong host, port or scheme, DNS, TLS, a
 * refused or reset connection), once the SDK's own retries are spent. Its message names the URL the request went
 * to, without user, password or query string, and what the connection said (`fetch failed: connect ECONNREFUSED
 * …`); the SDK's `APIConnectionError` is the `cause`.
 *
 * It extends the `APIConnectionError` of the openai module the client was built from, so `error instanceof
 * APIConnectionError` holds as it does for the SDK's own error, from CommonJS or ESM; `instanceof
 * ModelConnectionError` and {@link ModelConnectionError.isInstance} hold whichever module that is. A timeout is
 * not one: it stays the SDK's `APIConnectionTimeoutError`.
 *
 * @example
 * if (result.error instanceof ModelConnectionError) console.error(`check the base URL: ${result.error.url}`);
 */
export class ModelConnectionError extends APIConnectionError {
  static {
    Object.defineProperty(this, 'name', { value: 'ModelConnectionError' });
  }

  /** The request's URL (base URL and path), without user, password, query string or fragment. */
  declare readonly url: string;
  /** The SDK's `APIConnectionError`, whose own `cause` is what `fetch` threw. */
  declare readonly cause: Error;

  /** `url` is the request's URL as sent: its credentials and query string are left out here. */
  constructor(url: string, cause: Error) {
    super({ message: connectionMessage(url, cause), cause });
    brand(this, url);
  }

  /** True for a `ModelConnectionError` built on any openai module's `APIConnectionError`, or from another agentcall copy. */
  static override [Symbol.hasInstance](value: unknown): value is ModelConnectionError {
    return isBranded(value);
  }

  /** Whether `error` is a `ModelConnectionError`, whichever openai module or agentcall copy it came from. */
  static isInstance(error: unknown): error is ModelConnectionError {
    return isBranded(error);
  }

  /**
   * A `ModelConnectionError` on `base`, the `APIConnectionError` class of the client's openai module: this class
   * when that is the module agentcall imports, else a subclass of `base` made once, with the same name and brand, so
   * the user's `instanceof APIConnectionError` holds.
   *
   * @internal
   */
  static on(base: APIConnectionErrorClass, url: string, cause: Error): ModelConnectionError {
    if (base === (APIConnectionError as unknown as APIConnectionErrorClass))
      return new ModelConnectionError(url, cause);
    let Sibling = siblings.get(base);
    if (!Sibling) {
      Sibling = class extends base {
        constructor(url: string, cause: Error) {
          super({ message: connectionMessage(url, cause), cause });
          brand(this, url);
        }
      } as unknown as new (url: string, cause: Error) => ModelConnectionError;
      Object.defineProperty(Sibling, 'name', { value: NAME, configurable: true });
      siblings.set(base, Sibling);
    }
    return new Sibling(url, cause);
  }
}

const siblings = new WeakMap<APIConnectionErrorClass, new (url: string, cause: Error) => ModelConnectionError>();

function brand(error: Error, url: string): void {
  error.name = NAME;
  Object.defineProperty(error, 'url', { value: safeUrl(url) ?? url, enumerable: true });
  Object.defineProperty(error, BRAND, { value: true });
}

function isBranded(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/**
 * `Connection error: could not reach <url> (<what the connection said>)`. The URLs in the causes' messages lose
 * their credentials and query strings too: one of fetch's (a URL with credentials) quotes the URL whole.
 */
function connectionMessage(url: string, error: Error): string {
  const said: string[] = error.message && error.message !== SDK_MESSAGE ? [error.message] : [];
  let current: unknown = error.cause;
  for (let i = 0; i < MAX_CAUSES && typeof current === 'object' && current !== null; i++) {
    const message: unknown = Reflect.get(current, 'message');
    if (typeof message === 'string' && message) said.push(message.slice(0, MAX_CAUSE_CHARS));
    current = Reflect.get(current, 'cause');
  }
  const reason = said.length ? ` (${said.join(': ').replace(URL_IN_TEXT, (found) => safeUrl(found) ?? '[url]')})` : '';
  return `Connection error: could not reach ${safeUrl(url) ?? url}${reason}`;
}

const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:\/\/[^\s'"<>()]+/gi;

/**
 * `href` without user, password, query string or fragment (a base URL may carry credentials, a default query a
 * key such as Azure's `api-key`); undefined when it is not a URL.
 */
function safeUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href;
}
