import type { InjectionToken } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';
import type { ClassType } from '../index';
import { classChain, getMetadataStorage, toolMethodsOf } from '../internal';

/** A provider (or controller) whose class has `@Tool` methods or is an `@Agent`. */
export type ToolProvider = {
  /** The class with the `@Tool` methods (for a request-scoped factory, the class its token names). */
  readonly type: ClassType;
  /** What Nest resolves it by. */
  readonly token: InjectionToken;
  /** How errors name it: the class, and the token when that is not the class. */
  readonly label: string;
  /** Nest's id of the provider, the inquirer of its transient and request-scoped enhancers. */
  readonly id: string;
  /** The singleton; absent when the provider is request-scoped or transient (or depends on one). */
  readonly instance?: object;
};

/**
 * The providers and controllers whose class (or a base class) has `@Tool` methods, or is an `@Agent`, each once: singletons by
 * instance, request-scoped and transient providers by token.
 *
 * A singleton made by `useValue` or `useFactory` is known by the instance it produced; a request-scoped or
 * transient one made by `useClass` by that class. A request-scoped or transient `useFactory` produces nothing
 * until a run resolves it, so it is known by its token: a class token with `@Tool` methods
 * (`{ provide: TenantTools, useFactory: …, scope: Scope.REQUEST }`) makes it a tool provider, whose resolved
 * instance must then be of that class. A string or symbol token tells nothing, and such a factory is not a tool
 * provider.
 */
export function discoverToolProviders(discovery: DiscoveryService): ToolProvider[] {
  const found: ToolProvider[] = [];
  const seen = new Set<unknown>();
  for (const wrapper of [...discovery.getProviders(), ...discovery.getControllers()]) {
    if (wrapper.isAlias) continue;
    const scoped = wrapper.isTransient || !wrapper.isDependencyTreeStatic();
    const instance = wrapper.instance as unknown;
    const type = wrapper.isNotMetatype
      ? scoped
        ? asClass(wrapper.token)
        : instanceType(instance)
      : (wrapper.metatype as ClassType | null);
    if (!type || (toolMethodsOf(type).length === 0 && !getMetadataStorage().getAgent(type))) continue;
    const key = scoped ? wrapper.token : instance;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const label = wrapper.token === type ? type.name : `${tokenName(wrapper.token)} (${type.name})`;
    found.push({
      type,
      token: wrapper.token,
      label,
      id: wrapper.id,
      ...(!scoped && { instance: instance as object }),
    });
  }
  return found;
}

/**
 * The singleton providers and controllers whose class (or a base class) has `@Resource` or `@Prompt` methods, each
 * instance once. A request-scoped or transient one has no instance to serve from, and is left out.
 */
export function discoverMcpProviders(discovery: DiscoveryService): object[] {
  const storage = getMetadataStorage();
  const found = new Set<object>();
  for (const wrapper of [...discovery.getProviders(), ...discovery.getControllers()]) {
    if (wrapper.isAlias || wrapper.isTransient || !wrapper.isDependencyTreeStatic()) continue;
    const instance = wrapper.instance as unknown;
    const type = instanceType(instance);
    if (!type || found.has(instance as object)) continue;
    const members = classChain(type).some(
      (cls) => storage.getResources(cls).length + storage.getPrompts(cls).length > 0,
    );
    if (members) found.add(instance as object);
  }
  return [...found];
}

function instanceType(instance: unknown): ClassType | undefined {
  return typeof instance === 'object' && instance !== null ? (instance.constructor as ClassType) : undefined;
}

function asClass(token: InjectionToken): ClassType | undefined {
  return typeof token === 'function' ? (token as ClassType) : undefined;
}

function tokenName(token: InjectionToken): string {
  return typeof token === 'function' ? token.name : String(token);
}
