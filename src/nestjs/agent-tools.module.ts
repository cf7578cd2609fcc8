import { Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AGENT_TOOLS_OPTIONS, type AgentToolsModuleOptions } from './agent-tools.options';
import { ToolRegistry } from './tool-registry';

/** Options of `AgentToolsModule.forRootAsync`, for options that need other providers. */
export type AgentToolsModuleAsyncOptions = Pick<ModuleMetadata, 'imports'> & {
  /** Register the module globally (default true). */
  global?: boolean;
  useFactory: (...deps: never[]) => AgentToolsModuleOptions | Promise<AgentToolsModuleOptions>;
  inject?: FactoryProvider['inject'];
};

/**
 * Discovers every provider with `@Tool` methods and exposes them through an injectable {@link ToolRegistry}.
 * No extra decorator is needed: the same `@Tool` classes work with `toolsFrom` outside Nest.
 *
 * @example
 * @Module({
 *   imports: [AgentToolsModule.forRoot({ strict: true })],
 *   providers: [WeatherTools, WeatherApi, AgentService],
 * })
 * export class AppModule {}
 */
@Module({})
export class AgentToolsModule {
  /** Register the module with static options (defaults for every tool: `strict`, `timeoutMs`). */
  static forRoot(options: AgentToolsModuleOptions = {}): DynamicModule {
    return {
      module: AgentToolsModule,
      global: options.global ?? true,
      imports: [DiscoveryModule],
      providers: [{ provide: AGENT_TOOLS_OPTIONS, useValue: options }, ToolRegistry],
      exports: [ToolRegistry],
    };
  }

  /** Register the module with options built by a factory that may inject other providers. */
  static forRootAsync(options: AgentToolsModuleAsyncOptions): DynamicModule {
    return {
      module: AgentToolsModule,
      global: options.global ?? true,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [
        { provide: AGENT_TOOLS_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        ToolRegistry,
      ],
      exports: [ToolRegistry],
    };
  }
}
