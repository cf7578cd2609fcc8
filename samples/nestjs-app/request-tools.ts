import type { ModuleRef } from '@nestjs/core';
import { ContextIdFactory } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import type { ToolDefinition } from '../../src';
import type { ToolRegistry } from '../../src/nestjs';

/**
 * The tools of the run an HTTP request starts: request-scoped providers (and their dependencies) are resolved
 * in the request's own Nest context, with `REQUEST` injected; singleton tools are shared.
 */
export function requestTools(
  registry: ToolRegistry,
  moduleRef: ModuleRef,
  request: IncomingMessage,
): Promise<ToolDefinition[]> {
  const contextId = ContextIdFactory.getByRequest(request);
  moduleRef.registerRequestByContextId(request, contextId);
  return registry.resolveTools(contextId);
}
