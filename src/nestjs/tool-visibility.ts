import type { ToolExecuteContext } from '../index';
import { AGENT_TOOL_CONTEXT } from './agent-tool-context';
import type { ToolEnhancerSupport, ToolHost } from './enhance-tool';

/** Only the guards run: no interceptor, pipe, filter or method. */
const GUARDS_ONLY = { guards: true, interceptors: false, filters: false };

/**
 * Whether the guards on a tool's method (its class's, and global ones) would let `caller` call it, asked without
 * calling it: what an MCP `tools/list` shows that caller. The guards get the same `'agent-tool'` context as for a
 * call, with `params` (none for a listing: `getArgByIndex(0)` is `undefined`) and a `ToolExecuteContext` whose
 * `caller` is the one asking. A guard that returns false or throws hides the tool. The same check stands before
 * an MCP resource or prompt method (`name` is then the resource's or prompt's).
 *
 * @internal
 */
export function guardsAllow(
  name: string,
  host: ToolHost,
  support: ToolEnhancerSupport,
  caller: unknown,
  params?: unknown,
): Promise<boolean> {
  const check = checkOf(host, support);
  const ctx: ToolExecuteContext = {
    call: { id: 'tools_list', type: 'function', function: { name, arguments: '' } },
    messages: [],
    params,
    caller,
    signal: new AbortController().signal,
  };
  return check(params, ctx).then(
    () => true,
    () => false,
  );
}

type GuardCheck = (...args: unknown[]) => Promise<unknown>;

const checks = new WeakMap<ToolHost, GuardCheck>();

function checkOf(host: ToolHost, support: ToolEnhancerSupport): GuardCheck {
  let check = checks.get(host);
  if (check) return check;
  const { instance } = host;
  const { methodName } = host.method;
  // Nest reads method guards (and what `Reflector` finds) from the handler: a stand-in that carries the method's
  // metadata and does nothing, so only the guards' answer matters.
  const method = Reflect.get(instance, methodName) as object;
  const standIn = () => undefined;
  for (const key of Reflect.getMetadataKeys(method)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), standIn);
  }
  check = support.contextCreator.create(
    instance,
    standIn,
    // A name of its own: Nest caches parameter metadata per instance and method name, and the stand-in has none.
    `${methodName}\0visibility`,
    undefined,
    undefined,
    host.contextId,
    host.inquirerId,
    GUARDS_ONLY,
    AGENT_TOOL_CONTEXT,
  ) as GuardCheck;
  checks.set(host, check);
  return check;
}
