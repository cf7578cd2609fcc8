import 'reflect-metadata';
import {
  Catch,
  ForbiddenException,
  Inject,
  Injectable,
  Scope,
  SetMetadata,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type ArgumentMetadata,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { APP_INTERCEPTOR, ExternalContextCreator, REQUEST, Reflector } from '@nestjs/core';
import { IsString } from 'class-validator';
import { map, tap, type Observable } from 'rxjs';
import { Ctx } from '../../src/decorators/ctx.decorator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolMethodsOf } from '../../src/definitions/tool-methods-of';
import { toolsFrom } from '../../src/definitions/tools-from';
import { AGENT_TOOL_CONTEXT, type AgentToolContextType } from '../../src/nestjs';
import { enhanceTool } from '../../src/nestjs/enhance-tool';
import type { ToolExecuteContext } from '../../src/toolCall/type';
import { startNestAgentApp, type NestAgentApp, type TestCaller } from '../helpers/nest-agent-app';

const ROLES = 'test:roles';
const Roles = (...roles: string[]) => SetMetadata(ROLES, roles);

/** What a guard saw of one tool call's execution context. */
type Seen = { type: string; params: unknown; ctx: ToolExecuteContext; handler: unknown; cls: unknown };

@Injectable()
class RolesGuard implements CanActivate {
  readonly seen: Seen[] = [];
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const ctx = context.getArgByIndex<ToolExecuteContext>(1);
    this.seen.push({
      type: context.getType(),
      params: context.getArgByIndex(0),
      ctx,
      handler: context.getHandler(),
      cls: context.getClass(),
    });
    const roles = this.reflector.get<string[] | undefined>(ROLES, context.getHandler());
    if (!roles) return true;
    const caller = ctx.caller as TestCaller | undefined;
    if (roles.includes('owner') && caller?.role !== 'owner') throw new ForbiddenException('Only owners may do this');
    return roles.includes(caller?.role ?? '');
  }
}

@Injectable()
class UserStore {
  readonly users = new Map([
    ['u1', 'Ann'],
    ['u2', 'Bob'],
  ]);
  deletes = 0;
}

class UserNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`user ${id} not found in shard 7 (db://10.0.0.7/users)`);
  }
}

@Catch(UserNotFoundError)
class UserNotFoundFilter implements ExceptionFilter {
  readonly hosts: string[] = [];
  catch(error: UserNotFoundError, host: ArgumentsHost): string {
    this.hosts.push(host.getType());
    return `No user with id "${error.id}". Call list_users for the valid ids.`;
  }
}

@Injectable()
class ShoutInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => String(value).toUpperCase()));
  }
}

/** Records what each pipe call was given, and trims strings. */
@Injectable()
class TrimPipe implements PipeTransform {
  static readonly seen: { value: unknown; metadata: ArgumentMetadata }[] = [];
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    TrimPipe.seen.push({ value, metadata });
    return typeof value === 'string' ? value.trim() : value;
  }
}

class RenameDto {
  @Param({ description: 'New name' })
  @IsString()
  name!: string;
}

@Injectable()
@UseGuards(RolesGuard)
@UseFilters(UserNotFoundFilter)
class UserTools {
  constructor(private readonly store: UserStore) {}

  @Tool({ name: 'delete_user', description: 'Delete a user' })
  @Roles('admin')
  deleteUser(@Param('id') id: string): string {
    if (!this.store.users.has(id)) throw new UserNotFoundError(id);
    this.store.users.delete(id);
    this.store.deletes++;
    return `deleted ${id}`;
  }

  @Tool({ name: 'wipe_all', description: 'Delete every user' })
  @Roles('owner')
  wipeAll(): string {
    this.store.users.clear();
    return 'wiped';
  }

  @Tool({ name: 'ban_user', description: 'Ban a user', needsApproval: true })
  @Roles('admin')
  banUser(@Param('id') id: string, @Ctx() ctx: ToolExecuteContext): string {
    return `banned ${id} on behalf of ${(ctx.caller as TestCaller).user}`;
  }

  @Tool({ name: 'list_users', description: 'List users' })
  listUsers(): string[] {
    return [...this.store.users.keys()];
  }

  @Tool({ name: 'shout', description: 'Echo, loudly' })
  @UseInterceptors(ShoutInterceptor)
  shout(@Param('text') text: string): string {
    return text;
  }

  @Tool({ name: 'greet', description: 'Greet someone' })
  @UsePipes(TrimPipe)
  greet(@Param('name') name: string, @Ctx() ctx: ToolExecuteContext): string {
    return `hello [${name}] from ${(ctx.caller as TestCaller).user}`;
  }

  @Tool({ name: 'rename', description: 'Rename' })
  @UsePipes(TrimPipe)
  rename(@Param() dto: RenameDto): string {
    return `renamed to [${dto.name}]`;
  }
}

/** Plain tools: no enhancer of their own. */
@Injectable()
class ClockTools {
  @Tool({ name: 'wait', description: 'Wait a little' })
  async wait(@Param('ms') ms: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return 'waited';
  }

  @Tool({ name: 'now', description: 'Instant answer' })
  now(): string {
    return 'now';
  }
}

/** A global interceptor that records how long every tool call took. */
@Injectable()
class ToolTimingInterceptor implements NestInterceptor {
  readonly durations: { tool: string; ms: number }[] = [];
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<AgentToolContextType>() !== AGENT_TOOL_CONTEXT) return next.handle();
    const { call } = context.getArgByIndex<ToolExecuteContext>(1);
    const started = performance.now();
    return next
      .handle()
      .pipe(tap(() => this.durations.push({ tool: call.function.name, ms: performance.now() - started })));
  }
}

const admin: TestCaller = { user: 'ada', role: 'admin' };
const guest: TestCaller = { user: 'gus', role: 'guest' };

const toolMessages = (report: { calls: { id: string; response: string }[] }) =>
  Object.fromEntries(report.calls.map((call) => [call.id, call.response]));

describe('guards, interceptors, pipes and exception filters around tool calls (real Nest app over HTTP)', () => {
  let nest: NestAgentApp;
  let timing: ToolTimingInterceptor;
  beforeEach(async () => {
    TrimPipe.seen.length = 0;
    timing = new ToolTimingInterceptor();
    nest = await startNestAgentApp({
      providers: [
        UserStore,
        UserTools,
        ClockTools,
        RolesGuard,
        UserNotFoundFilter,
        { provide: APP_INTERCEPTOR, useValue: timing },
      ],
    });
  });
  afterEach(() => nest.close());

  it("lets an admin's run call delete_user and refuses a guest's, without running the method", async () => {
    const turns = [{ toolCalls: [{ id: 'd1', name: 'delete_user', arguments: { id: 'u1' } }] }, { text: 'ok' }];
    const refused = await nest.run({ turns, caller: guest });
    expect(refused.calls).toEqual([
      expect.objectContaining({ id: 'd1', response: 'Tool call not allowed', outcome: 'rejected' }),
    ]);
    expect(nest.app.get(UserStore).users.has('u1')).toBe(true);
    expect(nest.app.get(UserStore).deletes).toBe(0);

    const allowed = await nest.run({ turns, caller: admin });
    expect(allowed.calls).toEqual([expect.objectContaining({ id: 'd1', response: 'deleted u1', outcome: 'ok' })]);
    expect(nest.app.get(UserStore).users.has('u1')).toBe(false);

    // The model read exactly these tool messages.
    const sessions = nest.server.requests.filter((r) => r.turnIndex === 1);
    expect(sessions.map((r) => r.body.messages.at(-1))).toEqual([
      { role: 'tool', tool_call_id: 'd1', content: 'Tool call not allowed' },
      { role: 'tool', tool_call_id: 'd1', content: 'deleted u1' },
    ]);
  });

  it("answers a guard's ForbiddenException with its message as a refusal", async () => {
    const report = await nest.run({
      turns: [{ toolCalls: [{ id: 'w', name: 'wipe_all' }] }, { text: 'ok' }],
      caller: admin,
    });
    expect(report.calls[0]).toMatchObject({
      response: 'Tool call not allowed: Only owners may do this',
      outcome: 'rejected',
    });
    expect(nest.app.get(UserStore).users.size).toBe(2);
  });

  it("gives guards an 'agent-tool' context: validated params, the call, the caller, the handler and class", async () => {
    await nest.run({
      turns: [{ toolCalls: [{ id: 'd2', name: 'delete_user', arguments: { id: 'u2' } }] }, { text: 'ok' }],
      caller: admin,
    });
    const [seen] = nest.app.get(RolesGuard).seen;
    expect(seen.type).toBe('agent-tool');
    expect(seen.params).toEqual({ id: 'u2' });
    expect(seen.ctx.params).toBe(seen.params);
    expect(seen.ctx.call).toMatchObject({ id: 'd2', function: { name: 'delete_user' } });
    expect(seen.ctx.caller).toEqual(admin);
    expect(seen.ctx.signal).toBeInstanceOf(AbortSignal);
    expect(seen.ctx.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(seen.handler).toBe(UserTools.prototype.deleteUser);
    expect(seen.cls).toBe(UserTools);
  });

  it('lets an exception filter rewrite a domain error into the text the model reads', async () => {
    const report = await nest.run({
      turns: [{ toolCalls: [{ id: 'x', name: 'delete_user', arguments: { id: 'nobody' } }] }, { text: 'ok' }],
      caller: admin,
    });
    expect(report.calls[0].response).toBe('No user with id "nobody". Call list_users for the valid ids.');
    expect(nest.app.get(UserNotFoundFilter).hosts).toEqual(['agent-tool']);
  });

  it('lets an interceptor transform the result', async () => {
    const report = await nest.run({
      turns: [{ toolCalls: [{ id: 's', name: 'shout', arguments: { text: 'quiet please' } }] }, { text: 'ok' }],
      caller: guest,
    });
    expect(report.calls[0].response).toBe('QUIET PLEASE');
  });

  it('runs pipes on each parameter: a named one as param, a DTO as body, the context as custom', async () => {
    const report = await nest.run({
      turns: [
        {
          toolCalls: [
            { id: 'g', name: 'greet', arguments: { name: '  Ann  ' } },
            { id: 'r', name: 'rename', arguments: { name: ' Bo ' } },
          ],
        },
        { text: 'ok' },
      ],
      caller: guest,
    });
    expect(toolMessages(report)).toEqual({ g: 'hello [Ann] from gus', r: 'renamed to [ Bo ]' });
    expect(TrimPipe.seen.map(({ metadata }) => metadata)).toEqual(
      expect.arrayContaining([
        { type: 'param', data: 'name', metatype: String },
        { type: 'custom', metatype: Object },
        { type: 'body', metatype: RenameDto },
      ]),
    );
    expect(TrimPipe.seen).toHaveLength(3);
    expect(TrimPipe.seen.find((s) => s.metadata.type === 'body')?.value).toBeInstanceOf(RenameDto);
  });

  it('runs a global interceptor around every tool call, which records each duration', async () => {
    await nest.run({
      turns: [
        {
          toolCalls: [
            { id: 'a', name: 'wait', arguments: { ms: 40 } },
            { id: 'b', name: 'now' },
            { id: 'c', name: 'list_users' },
          ],
        },
        { toolCalls: [{ id: 'd', name: 'delete_user', arguments: { id: 'u1' } }] },
        { text: 'ok' },
      ],
      caller: guest,
    });
    const { durations } = timing;
    expect(durations.map((d) => d.tool)).toEqual(['wait', 'now', 'list_users']);
    // The refused call never reached the interceptor: guards run first.
    for (const { ms } of durations) expect(ms).toBeGreaterThanOrEqual(0);
    expect(durations[0].ms).toBeGreaterThan(durations[1].ms);
  });
});

describe('the caller across a pause and resume', () => {
  let nest: NestAgentApp;
  beforeEach(async () => {
    nest = await startNestAgentApp({ providers: [UserStore, UserTools, RolesGuard, UserNotFoundFilter] });
  });
  afterEach(() => nest.close());

  const pauseOnBan = (caller: TestCaller) =>
    nest.run({ turns: [{ toolCalls: [{ id: 'b1', name: 'ban_user', arguments: { id: 'u2' } }] }], caller });

  it('is carried in the RunState: a run resumed in another request acts for the same person, guards included', async () => {
    const paused = await pauseOnBan(admin);
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.caller).toEqual(admin);
    expect(paused.state.pending).toEqual([expect.objectContaining({ kind: 'approval' })]);

    // The resuming request names no caller: the run still acts for the admin who started it.
    const resumed = await nest.resume({
      state: paused.state,
      decisions: { b1: { approve: true } },
      turns: [{ text: 'ok' }],
    });
    expect(resumed.stopReason).toBe('completed');
    expect(resumed.calls).toEqual([expect.objectContaining({ id: 'b1', response: 'banned u2 on behalf of ada' })]);
    expect(resumed.state.caller).toEqual(admin);
    const { seen } = nest.app.get(RolesGuard);
    expect(seen.map((s) => s.ctx.caller)).toEqual([admin]);
  });

  it("keeps refusing a guest's call approved by someone else", async () => {
    const paused = await pauseOnBan(guest);
    expect(paused.state.caller).toEqual(guest);
    const resumed = await nest.resume({
      state: paused.state,
      decisions: { b1: { approve: true } },
      turns: [{ text: 'ok' }],
    });
    expect(resumed.calls).toEqual([
      expect.objectContaining({ id: 'b1', response: 'Tool call not allowed', outcome: 'rejected' }),
    ]);
  });
});

describe('tools without enhancers', () => {
  let nest: NestAgentApp;
  beforeEach(async () => {
    nest = await startNestAgentApp({ providers: [UserStore, UserTools, ClockTools, RolesGuard, UserNotFoundFilter] });
  });
  afterEach(() => nest.close());

  it('run as they would outside Nest when the app has no global enhancers; enhanced ones are built once', async () => {
    const create = jest.spyOn(nest.app.get(ExternalContextCreator), 'create');
    const turns = [
      { toolCalls: [{ id: 'n1', name: 'now' }] },
      { toolCalls: [{ id: 'l1', name: 'list_users' }] },
      { toolCalls: [{ id: 'l2', name: 'list_users' }] },
      { text: 'ok' },
    ];
    const report = await nest.run({ turns, caller: guest });
    expect(toolMessages(report)).toEqual({ n1: 'now', l1: '["u1","u2"]', l2: '["u1","u2"]' });
    expect(create).toHaveBeenCalledTimes(1);
    expect(create.mock.calls[0][2]).toBe('listUsers');
  });
});

/** A request-scoped guard: it reads the request the run serves, so Nest must build it in the run's own context. */
@Injectable({ scope: Scope.REQUEST })
class TenantGuard implements CanActivate {
  static created = 0;
  private readonly tenant?: string;
  constructor(@Inject(REQUEST) request: { headers: Record<string, string | undefined> }) {
    TenantGuard.created++;
    this.tenant = request.headers['x-tenant'];
  }

  canActivate(): boolean {
    if (this.tenant === 'banned') throw new ForbiddenException(`Tenant ${this.tenant} is suspended`);
    return true;
  }
}

/** Prefixes the result with the tenant the interceptor's own request names. */
@Injectable({ scope: Scope.REQUEST })
class TenantStampInterceptor implements NestInterceptor {
  constructor(@Inject(REQUEST) private readonly request: { headers: Record<string, string | undefined> }) {}
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => `[${this.request.headers['x-tenant']}] ${String(value)}`));
  }
}

/** A request-scoped tool provider with enhancers of its own. */
@Injectable({ scope: Scope.REQUEST })
@UseGuards(TenantGuard)
@UseInterceptors(TenantStampInterceptor)
class ReportTools {
  constructor(@Inject(REQUEST) private readonly request: { headers: Record<string, string | undefined> }) {}

  @Tool({ name: 'monthly_report', description: 'The tenant report' })
  async report(@Param('wait') wait: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, wait));
    return `report for ${this.request.headers['x-tenant']}`;
  }
}

describe('enhancers of request-scoped tool providers', () => {
  let nest: NestAgentApp;
  beforeEach(async () => {
    TenantGuard.created = 0;
    nest = await startNestAgentApp({ providers: [ReportTools, TenantGuard, TenantStampInterceptor] });
  });
  afterEach(() => nest.close());

  const runFor = (tenant: string, wait: number) =>
    nest.run({
      turns: [{ toolCalls: [{ id: 'r', name: 'monthly_report', arguments: { wait } }] }, { text: 'ok' }],
      headers: { 'x-tenant': tenant },
    });

  it("are built in each run's own context: request-scoped guards and interceptors see that run's request", async () => {
    const tenants = ['acme', 'banned', 'globex', 'initech'];
    const reports = await Promise.all(tenants.map((tenant, i) => runFor(tenant, (4 - i) * 5)));
    expect(reports.map((report) => report.calls[0])).toEqual([
      expect.objectContaining({ response: '[acme] report for acme', outcome: 'ok' }),
      expect.objectContaining({ response: 'Tool call not allowed: Tenant banned is suspended', outcome: 'rejected' }),
      expect.objectContaining({ response: '[globex] report for globex', outcome: 'ok' }),
      expect.objectContaining({ response: '[initech] report for initech', outcome: 'ok' }),
    ]);
    expect(TenantGuard.created).toBe(tenants.length);
  });
});

describe('enhanceTool and the definition it is given', () => {
  class Plain {
    @Tool({ name: 'first' })
    one() {
      return 'one';
    }

    @Tool({ name: 'second' })
    two() {
      return 'two';
    }
  }
  const support = { contextCreator: {} as ExternalContextCreator, hasGlobalEnhancers: () => false };
  const call = { id: 'c1', type: 'function' as const, function: { name: 'first', arguments: '{}' } };
  const ctx = { call, messages: [], params: {}, signal: new AbortController().signal };

  it('builds a new definition and never rewrites one, its own `execute` included, after the first call', async () => {
    const instance = new Plain();
    const [definition] = toolsFrom([instance]);
    const originalExecute = definition.execute;
    const enhanced = enhanceTool(definition, { instance, method: toolMethodsOf(Plain)[0] }, support);
    const execute = enhanced.execute;
    expect(enhanced).not.toBe(definition);
    expect(await enhanced.execute(ctx)).toEqual({ response: 'one' });
    expect(await enhanced.execute(ctx)).toEqual({ response: 'one' });
    expect(enhanced.execute).toBe(execute);
    expect(definition.execute).toBe(originalExecute);
  });
});
