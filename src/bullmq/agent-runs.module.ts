import type { DynamicModule } from '@nestjs/common';
import type { AgentRunsModuleOptions } from './agent-runs-module-options';

/** What this alias needs of `agentcall/nestjs`, which imports this entry (so a type import would close a circle). */
type NestEntry = { AgentRunsModule: { forRoot(options: AgentRunsModuleOptions): DynamicModule } };

/**
 * The same module as `AgentRunsModule` of `agentcall/nestjs`, kept here so existing imports keep working. Nest is
 * loaded only when this is called, so `agentcall/bullmq` works without it.
 *
 * @deprecated Import `AgentRunsModule` from `agentcall/nestjs`.
 */
export class AgentRunsModule {
  static forRoot(options: AgentRunsModuleOptions): DynamicModule {
    return loadNestEntry().AgentRunsModule.forRoot(options);
  }
}

/** `agentcall/nestjs`, loaded on demand: a plain `import` would make every user of this entry install Nest. */
function loadNestEntry(): NestEntry {
  // This module's own `require`, so '../nestjs' resolves next to this file (in Node and under jest).
  const load: NodeJS.Require = require;
  return load('../nestjs') as NestEntry;
}
