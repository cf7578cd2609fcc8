import { APIConnectionError, APIConnectionTimeoutError } from 'openai';
import { ModelConnectionError, type APIConnectionErrorClass } from '../errors/model-connection.error';

/**
 * `error` as a {@link ModelConnectionError} naming the URL of the request when it is the SDK's connection error
 * (not its timeout), else `error` itself. The classes are those of the module `client` was built from (another
 * openai copy, or its ESM build, has its own); the URL is the client's `baseURL` and the wire's `path`.
 *
 * @internal
 */
export function nameConnectionFailure(error: unknown, client: object | undefined, path: string): unknown {
  if (client === undefined || !(error instanceof Error)) return error;
  const ctor: unknown = Reflect.get(client, 'constructor');
  const base = classOf(ctor, 'APIConnectionError') ?? APIConnectionError;
  const timeout = classOf(ctor, 'APIConnectionTimeoutError') ?? APIConnectionTimeoutError;
  if (!(error instanceof base) || error instanceof timeout) return error;
  const url = requestUrl(Reflect.get(client, 'baseURL'), path);
  return url === undefined ? error : ModelConnectionError.on(base, url, error);
}

function classOf(ctor: unknown, name: string): APIConnectionErrorClass | undefined {
  const found: unknown = typeof ctor === 'function' ? Reflect.get(ctor, name) : undefined;
  return typeof found === 'function' ? (found as APIConnectionErrorClass) : undefined;
}

/** `baseURL` + `path` (the error leaves out credentials and query string); undefined when it is not a URL. */
function requestUrl(baseURL: unknown, path: string): string | undefined {
  return typeof baseURL === 'string' && URL.canParse(baseURL) ? baseURL.replace(/\/+$/, '') + path : undefined;
}
