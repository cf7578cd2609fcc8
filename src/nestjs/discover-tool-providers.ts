import type { InjectionToken } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';
import { classChain, classOf } from '../metadata/class-chain';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ClassRef } from '../metadata/options';

/** A provider (or controller) whose class has `@Tool` methods. */
export type ToolProvider = {
  /** The class with the `@Tool` methods. */
  readonly type: ClassRef;
  /** What Nest resolves it by. */
  readonly token: InjectionToken;
  /** Nest's id of the provider, the inquirer of its transient and request-scoped enhancers. */
  readonly id: string;
  /** The singleton; absent when the provider is request-scoped or transient (or depends on one). */
  readonly instance?: object;
};

/**
 * The providers and controllers whose class (or a base class) has `@Tool` methods, each once: singletons by
 * instance, request-scoped and transient providers by token. A request-scoped factory provider is skipped: its
 * class is unknown until a request creates it.
 */
export function discoverToolProviders(discovery: DiscoveryService): ToolProvider[] {
  const found: ToolProvider[] = [];
  const seen = new Set<unknown>();
  for (const wrapper of [...discovery.getProviders(), ...discovery.getControllers()]) {
    if (wrapper.isAlias) continue;
    const scoped = wrapper.isTransient || !wrapper.isDependencyTreeStatic();
    const instance = wrapper.instance as unknown;
    // useValue / useFactory providers have no class of their own to read: look at what they produced.
    const type = wrapper.isNotMetatype
      ? scoped
        ? undefined
        : instanceType(instance)
      : (wrapper.metatype as ClassRef | null);
    if (!type || !hasTools(type)) continue;
    const key = scoped ? wrapper.token : instance;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    found.push({ type, token: wrapper.token, id: wrapper.id, ...(!scoped && { instance: instance as object }) });
  }
  return found;
}

function instanceType(instance: unknown): ClassRef | undefined {
  return typeof instance === 'object' && instance !== null ? classOf(instance) : undefined;
}

function hasTools(type: ClassRef): boolean {
  const storage = getMetadataStorage();
  return classChain(type).some((cls) => storage.getTools(cls).length > 0);
}
