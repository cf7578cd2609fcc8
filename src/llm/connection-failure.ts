import { APIConnectionError, APIConnectionTimeoutError } from 'openai';
import { modelConnectionErrorOn, type APIConnectionErrorClass } from '../errors/model-connection.error';
import type { ModelConnectionError } from '../errors/model-connection.error';

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
  const base = classOf(ctor, 'APIConnectionError') ?? (APIConnectionError);
  const timeout = classOf(ctor, 'APIConnectionTimeoutError') ?? APIConnectionTimeoutError;
  if (!(error instanceof base) || error instanceof timeout) return error;
  const url = requestUrl(Reflect.get(client, 'baseURL'), path);
  return url === undefined ? error : (modelConnectionErrorOn(base, url, error) satisfies ModelConnectionError);
}

function classOf(ctor: unknown, name: string): APIConnectionErrorClass | undefined {
  const found: unknown = typeof ctor === 'function' ? Reflect.get(ctor, name) : undefined;
  return typeof found === 'function' ? (found as APIConnectionErrorClass) : undefined;
}

/**
 * `baseURL` + `path` without user, password, query string or fragment: the client's default query may carry a
 * key (Azure's `api-key`), and a base URL may carry credentials.
 */
function requestUrl(baseURL: unknown, path: string): string | undefined {
  if (typeof baseURL !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return undefined;
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '') + path;
}
