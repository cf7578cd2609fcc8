import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ReadResourceResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { getErrText } from '../index';
import { maskSecrets } from '../internal';
import { completeArgument } from './complete-argument';
import type { McpPromptDefinition } from './prompts-from';
import type { McpResourceDefinition } from './resources-from';
import type { ResourceUpdates } from './resource-updates';

/** The longest part of a client-sent URI or name an error repeats. */
const MAX_ECHOED_CHARS = 200;
/** URIs one connection may be subscribed to at once: a client cannot grow the set without end. */
const MAX_SUBSCRIPTIONS = 1_000;

/**
 * The capabilities a server announces for what it serves: resources (with subscribe), prompts, and completions
 * when either has arguments to complete.
 *
 * @internal
 */
export function resourceAndPromptCapabilities(
  resources: readonly McpResourceDefinition[],
  prompts: readonly McpPromptDefinition[],
): { resources?: { subscribe: true }; prompts?: Record<string, never>; completions?: Record<string, never> } {
  return {
    ...(resources.length > 0 && { resources: { subscribe: true } }),
    ...(prompts.length > 0 && { prompts: {} }),
    ...((resources.some((r) => r.template) || prompts.some((p) => p.arguments.length > 0)) && { completions: {} }),
  };
}

/**
 * Who may use a resource or a prompt: asked with no params for a listing, and with the template's variables or the
 * prompt's arguments before a read or get. One that says no (or throws) is left out of lists and answered as unknown.
 */
export type McpMemberAccess = {
  /** The caller of a request. */
  callerOf: (ctx: ServerContext) => unknown;
  allows: (
    member: McpResourceDefinition | McpPromptDefinition,
    caller: unknown,
    params: unknown,
  ) => boolean | Promise<boolean>;
};

/**
 * Answer `resources/*`, `prompts/*` and `completion/complete` from the definitions. A method that throws is a
 * protocol error carrying its masked message (never a stack); an unknown URI or name is `-32602`, and so is one
 * `access` refuses the caller. A subscribed URI that `updates` says changed is announced with
 * `notifications/resources/updated`.
 *
 * @internal
 */
export function serveResourcesAndPrompts(
  server: Server,
  resources: readonly McpResourceDefinition[],
  prompts: readonly McpPromptDefinition[],
  updates?: ResourceUpdates,
  access?: McpMemberAccess,
): void {
  const allowed = async (member: McpResourceDefinition | McpPromptDefinition, ctx: ServerContext, params?: unknown) => {
    if (!access) return true;
    try {
      return (await access.allows(member, access.callerOf(ctx), params)) === true;
    } catch {
      return false;
    }
  };
  const shown = async <M extends McpResourceDefinition | McpPromptDefinition>(
    members: readonly M[],
    ctx: ServerContext,
  ) => {
    if (!access) return members;
    const allows = await Promise.all(members.map((member) => allowed(member, ctx)));
    return members.filter((_member, i) => allows[i]);
  };
  if (resources.length > 0) {
    const fixed = resources.filter((r) => !r.template);
    const templates = resources.filter((r) => r.template);
    const readable = async (uri: string, ctx: ServerContext) => {
      const found = findResource(fixed, templates, uri);
      // A resource the caller may not use is answered like one that does not exist.
      if (!found || !(await allowed(found.resource, ctx, found.variables))) {
        throw new ResourceNotFoundError(uri, `Resource not found: ${echo(uri)}`);
      }
      return found;
    };
    server.setRequestHandler('resources/list', async (_request, ctx) => ({
      resources: (await shown(fixed, ctx)).map(({ uri, name, title, description, mimeType }) =>
        defined({ uri, name, title, description, mimeType }),
      ),
    }));
    server.setRequestHandler('resources/templates/list', async (_request, ctx) => ({
      resourceTemplates: (await shown(templates, ctx)).map(({ uri, name, title, description, mimeType }) =>
        defined({ uriTemplate: uri, name, title, description, mimeType }),
      ),
    }));
    server.setRequestHandler('resources/read', async (request, ctx) => {
      const { uri } = request.params;
      const found = await readable(uri, ctx);
      return guarded(() => found.resource.read(uri, found.variables));
    });
    const subscriptions = subscriptionsOf(server, updates);
    server.setRequestHandler('resources/subscribe', async (request, ctx) => {
      const { uri } = request.params;
      await readable(uri, ctx);
      subscriptions.add(uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', (request) => {
      subscriptions.delete(request.params.uri);
      return {};
    });
  }
  if (prompts.length > 0) {
    const byName = new Map(prompts.map((prompt) => [prompt.name, prompt]));
    server.setRequestHandler('prompts/list', async (_request, ctx) => ({
      prompts: (await shown(prompts, ctx)).map(({ name, title, description, arguments: args }) =>
        defined({ name, title, description, arguments: [...args] }),
      ),
    }));
    server.setRequestHandler('prompts/get', async (request, ctx) => {
      const prompt = byName.get(request.params.name);
      if (!prompt || !(await allowed(prompt, ctx, request.params.arguments ?? {}))) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt not found: ${echo(request.params.name)}`);
      }
      return guarded(() => prompt.get(request.params.arguments ?? {}));
    });
  }
  if (resources.some((r) => r.template) || prompts.length > 0) {
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      const { ref, argument, context } = request.params;
      const given = { arguments: context?.arguments ?? {} };
      if (ref.type === 'ref/prompt') {
        const prompt = prompts.find((p) => p.name === ref.name);
        if (!prompt || !(await allowed(prompt, ctx)))
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt not found: ${echo(ref.name)}`);
        return completeArgument(
          prompt.complete?.[argument.name],
          prompt.enums.get(argument.name),
          argument.value,
          given,
        );
      }
      const resource = resources.find((r) => r.template && r.uri === ref.uri);
      if (!resource || !(await allowed(resource, ctx))) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource template not found: ${echo(ref.uri)}`);
      }
      return completeArgument(resource.complete?.[argument.name], undefined, argument.value, given);
    });
  }
}

/**
 * The URIs this server's client subscribed to. The server listens to `updates` only while it has one, and stops
 * when its connection closes, so a closed session leaves nothing behind.
 */
function subscriptionsOf(server: Server, updates: ResourceUpdates | undefined) {
  const uris = new Set<string>();
  let stop: (() => void) | undefined;
  const stopListening = () => {
    stop?.();
    stop = undefined;
  };
  return {
    add(uri: string): void {
      if (!uris.has(uri) && uris.size >= MAX_SUBSCRIPTIONS) {
        throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `At most ${MAX_SUBSCRIPTIONS} subscriptions`);
      }
      uris.add(uri);
      if (!updates || stop) return;
      stop = updates.listen((changed) => {
        if (uris.has(changed)) void server.sendResourceUpdated({ uri: changed }).catch(() => undefined);
      });
      const closed = server.onclose;
      server.onclose = () => {
        stopListening();
        closed?.();
      };
    },
    delete(uri: string): void {
      uris.delete(uri);
      if (uris.size === 0) stopListening();
    },
  };
}

function findResource(
  fixed: readonly McpResourceDefinition[],
  templates: readonly McpResourceDefinition[],
  uri: string,
): { resource: McpResourceDefinition; variables: Record<string, string | string[]> } | undefined {
  const exact = fixed.find((r) => r.uri === uri);
  if (exact) return { resource: exact, variables: {} };
  for (const resource of templates) {
    const variables = resource.template!.match(uri);
    if (variables) return { resource, variables };
  }
  return undefined;
}

/** Run a member's method; what it throws reaches the client as a protocol error with its masked message. */
async function guarded<T extends ReadResourceResult | object>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError(ProtocolErrorCode.InternalError, maskSecrets(getErrText(error)));
  }
}

function echo(text: string): string {
  return maskSecrets(text.slice(0, MAX_ECHOED_CHARS));
}

/** The fields that have a value: MCP's schemas reject an explicit `undefined` in some SDK paths. */
function defined<T extends Record<string, unknown>>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
