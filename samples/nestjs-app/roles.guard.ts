import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ToolExecuteContext } from '../../src';
import { AGENT_TOOL_CONTEXT, type AgentToolContextType } from '../../src/nestjs';
import type { Caller } from './caller';

const ROLES = 'sample:roles';

/** The roles allowed to call a tool (or a route). */
export const Roles = (...roles: Caller['role'][]) => SetMetadata(ROLES, roles);

/**
 * Lets a tool call through when its caller has one of the tool's `@Roles`. Around a tool call the execution
 * context is of type `'agent-tool'`: argument 0 is the validated params, argument 1 the `ToolExecuteContext`,
 * whose `caller` is the one the run was started for.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.get<Caller['role'][] | undefined>(ROLES, context.getHandler());
    if (!roles || context.getType<AgentToolContextType>() !== AGENT_TOOL_CONTEXT) return true;
    const { caller } = context.getArgByIndex<ToolExecuteContext>(1);
    return roles.includes((caller as Caller | undefined)?.role ?? 'member');
  }
}
