// The NestJS app both Nest consumers build (CommonJS on Nest 11, ESM on Nest 12): tool providers discovered by
// AgentToolsModule, the client from DI; a guard, a global interceptor and an exception filter around tool calls;
// request-scoped tool providers (a class and a factory) resolved per run. Copied beside each consumer's main.ts.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import {
  Catch,
  Inject,
  Injectable,
  Module,
  Scope,
  SetMetadata,
  UseFilters,
  UseGuards,
  type CallHandler,
  type DynamicModule,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR, ContextIdFactory, ModuleRef, NestFactory, REQUEST, Reflector } from '@nestjs/core';
import OpenAI from 'openai';
import { tap, type Observable } from 'rxjs';
import {
  Ctx,
  Param,
  Tool,
  runAgentLoop,
  type RunAgentResponse,
  type ToolExecuteContext,
  type ToolOutcome,
} from 'agentcall';
import { AGENT_TOOL_CONTEXT, AgentToolsModule, ToolRegistry, type AgentToolContextType } from 'agentcall/nestjs';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from 'agentcall/testing';

const OPENAI = Symbol('OPENAI');
type Caller = { user: string; role: 'admin' | 'guest' };
type RunRequest = { tenant: string };

const Roles = (...roles: Caller['role'][]) => SetMetadata('roles', roles);

/** Lets a tool call through when the run's caller has one of the tool's roles. */
@Injectable()
class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.get<Caller['role'][] | undefined>('roles', context.getHandler());
    if (!roles || context.getType<AgentToolContextType>() !== AGENT_TOOL_CONTEXT) return true;
    const { caller } = context.getArgByIndex<ToolExecuteContext>(1);
    return roles.includes((caller as Caller).role);
  }
}

/** Records how long every tool call took (registered globally). */
@Injectable()
class TimingInterceptor implements NestInterceptor {
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

class OutOfStockError extends Error {
  constructor(readonly item: string) {
    super(`stock row ${item} missing in warehouse db 10.0.0.7`);
  }
}

/** Turns a domain error into text the model can act on. */
@Catch(OutOfStockError)
class OutOfStockFilter implements ExceptionFilter<OutOfStockError> {
  catch(error: OutOfStockError): string {
    return `"${error.item}" is out of stock; offer tea instead.`;
  }
}

@Injectable()
class PriceList {
  readonly items = new Map([
    ['tea', 3],
    ['cake', 5],
  ]);
}

@Injectable()
@UseGuards(RolesGuard)
@UseFilters(OutOfStockFilter)
class ShopTools {
  constructor(private readonly prices: PriceList) {}

  @Tool({ description: 'Price of an item in euros' })
  price(@Param('item', { description: 'Item name' }) item: string): string {
    const price = this.prices.items.get(item);
    if (price === undefined) throw new OutOfStockError(item);
    return `${item} costs ${price} EUR`;
  }

  @Tool({ name: 'delete_item', description: 'Remove an item from the shop (admins only)' })
  @Roles('admin')
  deleteItem(@Param('item') item: string, @Ctx() ctx: ToolExecuteContext): string {
    this.prices.items.delete(item);
    return `${(ctx.caller as Caller).user} deleted ${item}`;
  }
}

/** A request-scoped tool provider: one per run, built with the run's request object. */
@Injectable({ scope: Scope.REQUEST })
class TenantTools {
  constructor(@Inject(REQUEST) private readonly request: RunRequest) {}

  @Tool({ name: 'current_tenant', description: 'The tenant this run serves' })
  async currentTenant(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return this.request.tenant;
  }
}

/** A request-scoped tool provider built by a factory, provided under its own class. */
class InvoiceTools {
  constructor(private readonly tenant: string) {}

  @Tool({ name: 'invoice_owner', description: 'Whose invoices these are' })
  owner(): string {
    return `invoices of ${this.tenant}`;
  }
}

const SCRIPTED = Symbol('SCRIPTED');

@Injectable()
class AgentService {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly moduleRef: ModuleRef,
    @Inject(OPENAI) private readonly client: OpenAI,
    @Inject(SCRIPTED) private readonly server: ScriptedServer,
  ) {}

  /** One run for `caller`, with request-scoped tools resolved for `request`, against a scripted model. */
  async run(caller: Caller, request: RunRequest, turns: ScriptedTurn[]) {
    const contextId = ContextIdFactory.create();
    this.moduleRef.registerRequestByContextId(request, contextId);
    const session = this.server.session(turns);
    const calls: Record<string, { response: string; outcome: ToolOutcome }> = {};
    const result: RunAgentResponse = await runAgentLoop({
      client: this.client.withOptions({ baseURL: session.baseURL, apiKey: session.apiKey }),
      body: { model: 'm', messages: [{ role: 'user', content: 'go' }] },
      tools: await this.registry.resolveTools(contextId),
      caller,
      onAfterToolCall: ({ call, response, outcome }) => (calls[call.function.name] = { response, outcome }),
    });
    assert.equal(result.stopReason, 'completed');
    return calls;
  }
}

@Module({})
class AppModule {
  static register(server: ScriptedServer, timing: TimingInterceptor): DynamicModule {
    return {
      module: AppModule,
      imports: [AgentToolsModule.forRoot()],
      providers: [
        PriceList,
        ShopTools,
        TenantTools,
        RolesGuard,
        OutOfStockFilter,
        { provide: APP_INTERCEPTOR, useValue: timing },
        {
          provide: InvoiceTools,
          scope: Scope.REQUEST,
          inject: [REQUEST],
          useFactory: (request: RunRequest) => new InvoiceTools(request.tenant),
        },
        AgentService,
        { provide: SCRIPTED, useValue: server },
        { provide: OPENAI, useFactory: () => new OpenAI({ baseURL: server.baseURL, apiKey: 'none', maxRetries: 0 }) },
      ],
    };
  }
}

/** Runs a guest's and an admin's agent side by side in the app and checks every tool call's answer. */
export async function checkShopApp(): Promise<void> {
  const server = await startScriptedServer();
  const timing = new TimingInterceptor();
  const app = await NestFactory.createApplicationContext(AppModule.register(server, timing), { logger: false });
  try {
    const registry = app.get(ToolRegistry);
    assert.deepEqual(
      registry.getTools().map((t) => t.schema.function.name),
      ['price', 'delete_item'],
    );
    const shop = (item: string, extra: string) => [
      {
        toolCalls: [
          { name: 'delete_item', arguments: { item } },
          { name: 'price', arguments: { item: extra } },
          { name: 'current_tenant' },
          { name: 'invoice_owner' },
        ],
      },
      { text: 'done' },
    ];
    const [guest, admin] = await Promise.all([
      app.get(AgentService).run({ user: 'gus', role: 'guest' }, { tenant: 'acme' }, shop('cake', 'tea')),
      app.get(AgentService).run({ user: 'ada', role: 'admin' }, { tenant: 'globex' }, shop('tea', 'scones')),
    ]);
    assert.deepEqual(guest, {
      delete_item: { response: 'Tool call not allowed', outcome: 'rejected' },
      price: { response: 'tea costs 3 EUR', outcome: 'ok' },
      current_tenant: { response: 'acme', outcome: 'ok' },
      invoice_owner: { response: 'invoices of acme', outcome: 'ok' },
    });
    assert.deepEqual(admin, {
      delete_item: { response: 'ada deleted tea', outcome: 'ok' },
      price: { response: '"scones" is out of stock; offer tea instead.', outcome: 'ok' },
      current_tenant: { response: 'globex', outcome: 'ok' },
      invoice_owner: { response: 'invoices of globex', outcome: 'ok' },
    });
    assert.deepEqual([...app.get(PriceList).items.keys()], ['cake']);
    // Every call that ran (not the refused one, nor the one the filter answered) was timed by the interceptor.
    const timed = timing.durations;
    assert.deepEqual(timed.map((d) => d.tool).sort(), [
      'current_tenant',
      'current_tenant',
      'delete_item',
      'invoice_owner',
      'invoice_owner',
      'price',
    ]);
    assert.ok(timed.filter((d) => d.tool === 'current_tenant').every((d) => d.ms >= 4));
  } finally {
    await app.close();
    await server.close();
  }
}
