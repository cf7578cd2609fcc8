import type { DiscoveryService } from '@nestjs/core';
import { UnsupportedToolScopeError } from '../errors/unsupported-tool-scope.error';
import { classChain } from '../metadata/class-chain';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ClassRef } from '../metadata/options';
import { classOf } from '../metadata/class-chain';

/**
 * The provider and controller instances whose class (or a base class) has `@Tool` methods, each once.
 *
 * Throws {@link UnsupportedToolScopeError} for tool classes that are request-scoped or transient: their
 * instance at bootstrap is not the one a request would get, so binding tools to it would half-work.
 */
export function discoverToolProviders(discovery: DiscoveryService): object[] {
  const instances = new Set<object>();
  const unsupported = new Set<string>();
  for (const wrapper of [...discovery.getProviders(), ...discovery.getControllers()]) {
    if (wrapper.isAlias) continue;
    // useValue / useFactory providers have no class of their own to read: look at what they produced.
    const type = wrapper.isNotMetatype ? instanceType(wrapper.instance) : (wrapper.metatype as ClassRef | null);
    if (!type || !hasTools(type)) continue;
    if (wrapper.isTransient || !wrapper.isDependencyTreeStatic()) {
      unsupported.add(type.name);
      continue;
    }
    if (wrapper.instance) instances.add(wrapper.instance as object);
  }
  if (unsupported.size) throw new UnsupportedToolScopeError([...unsupported]);
  return [...instances];
}

function instanceType(instance: unknown): ClassRef | undefined {
  return typeof instance === 'object' && instance !== null ? classOf(instance) : undefined;
}

function hasTools(type: ClassRef): boolean {
  const storage = getMetadataStorage();
  return classChain(type).some((cls) => storage.getTools(cls).length > 0);
}
