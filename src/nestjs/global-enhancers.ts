import { ContextIdFactory, type ExternalContextCreator } from '@nestjs/core';

/** The part of Nest's guard, interceptor, pipe and filter context creators this module reads. */
type GlobalEnhancerSource = { getGlobalMetadata?: (contextId?: unknown) => unknown };

const SOURCES = ['guardsContextCreator', 'interceptorsContextCreator', 'pipesContextCreator', 'filtersContextCreator'];

/**
 * Whether the application has global guards, interceptors, pipes or exception filters (`app.useGlobal…()` or
 * `APP_GUARD`-style providers, request-scoped ones included).
 *
 * `ExternalContextCreator` answers this only by creating a handler, so the question goes to the context
 * creators it holds. Should a Nest version hold them differently, the answer is "yes": tools then always run
 * through Nest, which is correct, only not free.
 */
export function hasGlobalEnhancers(contextCreator: ExternalContextCreator): boolean {
  // A context of its own, so request-scoped global enhancers are listed too (as placeholders, never constructed).
  const probe = ContextIdFactory.create();
  return SOURCES.some((field) => {
    const source = Reflect.get(contextCreator, field) as GlobalEnhancerSource | undefined;
    if (typeof source?.getGlobalMetadata !== 'function') return true;
    const enhancers = source.getGlobalMetadata(probe);
    return !Array.isArray(enhancers) || enhancers.length > 0;
  });
}
