import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { ContextIdFactory, REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { ToolDefinitionError } from '../../src/errors';
import { runTool } from '../../src/toolCall/run-tool';
import { AgentToolsModule, ToolRegistry, UnsupportedToolScopeError } from '../../src/nestjs';
import { startNestAgentApp, type NestAgentApp } from '../helpers/nest-agent-app';

/** The tenant of the HTTP request, read from its `x-tenant` header: a request-scoped provider. */
@Injectable({ scope: Scope.REQUEST })
class TenantContext {
  static created = 0;
  readonly tenant: string;
  constructor(@Inject(REQUEST) request: { headers: Record<string, string | undefined> }) {
    TenantContext.created++;
    this.tenant = request.headers['x-tenant'] ?? 'none';
  }
}

/** A default-scoped provider that depends on a request-scoped one, so Nest makes it per request too. */
@Injectable()
class TenantTools {
  static readonly instances = new Set<TenantTools>();
  constructor(private readonly context: TenantContext) {
    TenantTools.instances.add(this);
  }

  @Tool({ name: 'current_tenant', description: 'The tenant this run serves' })
  async currentTenant(@Param('wait') wait: number): Promise<string> {
    const before = this.context.tenant;
    // Let other runs' calls interleave with this one.
    await new Promise((resolve) => setTimeout(resolve, wait));
    return `${before}/${this.context.tenant}`;
  }
}

@Injectable()
class Calculator {
  @Tool({ description: 'Add' })
  add(@Param('a') a: number, @Param('b') b: number): number {
    return a + b;
  }
}

@Injectable({ scope: Scope.TRANSIENT })
class Counter {
  count = 0;
  @Tool({ description: 'Count one up' })
  increment(): number {
    return ++this.count;
  }
}

const call = (name: string, args: object = {}) => ({
  id: 'c1',
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe('ToolRegistry: request-scoped tool providers in a real Nest app over HTTP', () => {
  let nest: NestAgentApp;
  beforeEach(async () => {
    TenantTools.instances.clear();
    TenantContext.created = 0;
    nest = await startNestAgentApp({ providers: [TenantContext, TenantTools, Calculator] });
  });
  afterEach(() => nest.close());

  const runFor = (tenant: string, waits: number[]) =>
    nest.run({
      turns: [
        { toolCalls: waits.map((wait, i) => ({ id: `t${i}`, name: 'current_tenant', arguments: { wait } })) },
        { toolCalls: [{ id: 'last', name: 'current_tenant', arguments: { wait: waits[0] } }] },
        { text: 'done' },
      ],
      headers: { 'x-tenant': tenant },
    });

  it('gives two concurrent runs their own request-derived tenant', async () => {
    const [acme, globex] = await Promise.all([runFor('acme', [20, 5]), runFor('globex', [5, 20])]);
    expect(acme.calls.map((c) => c.response)).toEqual(['acme/acme', 'acme/acme', 'acme/acme']);
    expect(globex.calls.map((c) => c.response)).toEqual(['globex/globex', 'globex/globex', 'globex/globex']);
    expect(TenantTools.instances.size).toBe(2);
    expect(TenantContext.created).toBe(2);
  });

  it('has no cross-talk under 50 concurrent runs', async () => {
    const tenants = Array.from({ length: 50 }, (_, i) => `tenant-${i}`);
    const reports = await Promise.all(tenants.map((tenant, i) => runFor(tenant, [(i * 7) % 11, (i * 3) % 5])));
    reports.forEach((report, i) => {
      expect(report.stopReason).toBe('completed');
      expect(report.calls.map((c) => c.response)).toEqual(Array(3).fill(`${tenants[i]}/${tenants[i]}`));
    });
    // One instance per run, each built with its own request.
    expect(TenantTools.instances.size).toBe(50);
    expect(TenantContext.created).toBe(50);
  });

  it('keeps singleton tools in getTools(), synchronous and shared by every run', () => {
    const registry = nest.app.get(ToolRegistry);
    expect(registry.getTools().map((t) => t.schema.function.name)).toEqual(['add']);
    expect(registry.getTool('current_tenant')).toBeUndefined();
    expect(registry.getToolsOf(TenantTools)).toEqual([]);
  });
});

describe('ToolRegistry.resolveTools', () => {
  it('resolves request-scoped and transient providers per context: fresh by default, the same for one context', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRun {
      static created = 0;
      readonly n = ++PerRun.created;
      @Tool({ description: 'Which instance' })
      which(): number {
        return this.n;
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot()],
      providers: [Calculator, Counter, PerRun],
    }).compile();
    const app = await moduleRef.init();
    const registry = app.get(ToolRegistry);

    const first = await registry.resolveTools();
    const second = await registry.resolveTools();
    expect(first.map((t) => t.schema.function.name)).toEqual(['add', 'increment', 'which']);
    // Singleton tools are the very definitions getTools() returns.
    expect(first[0]).toBe(registry.getTools()[0]);
    expect(second[0]).toBe(first[0]);

    const run = async (tools: typeof first, name: string) =>
      (await runTool({ call: call(name), messages: [], tools })).response;
    expect([await run(first, 'which'), await run(second, 'which')]).toEqual(['1', '2']);
    expect([await run(first, 'increment'), await run(first, 'increment'), await run(second, 'increment')]).toEqual([
      '1',
      '2',
      '1',
    ]);

    const contextId = ContextIdFactory.create();
    const again = await registry.resolveTools(contextId);
    expect(await registry.resolveTools(contextId)).toBe(again);
    expect(await run(again, 'which')).toBe('3');
    expect(PerRun.created).toBe(3);
    await app.close();
  });

  it('names the provider when it cannot be resolved for a run', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot()],
      providers: [TenantContext, TenantTools],
    }).compile();
    const app = await moduleRef.init();
    // No request is registered for a fresh context: TenantContext cannot read its headers.
    const error = await app
      .get(ToolRegistry)
      .resolveTools()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(UnsupportedToolScopeError.isInstance(error)).toBe(true);
    expect((error as UnsupportedToolScopeError).classNames).toEqual(['TenantTools']);
    expect((error as Error).message).toMatch(
      /could not resolve the request-scoped or transient tool provider TenantTools/,
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    await app.close();
  });

  it('reports duplicate tool names of request-scoped providers at bootstrap', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class OtherCalculator {
      @Tool() add(@Param('x') x: number): number {
        return x;
      }
    }
    @Module({ providers: [Calculator, OtherCalculator] })
    class Tools {}
    const moduleRef = await Test.createTestingModule({ imports: [AgentToolsModule.forRoot(), Tools] }).compile();
    const error = await moduleRef.init().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ToolDefinitionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/duplicate tool name "add"/);
  });
});

/** Tools built by a request-scoped factory, from the tenant it reads off the request. */
class InvoiceTools {
  static built = 0;
  constructor(private readonly tenant: string) {
    InvoiceTools.built++;
  }

  @Tool({ name: 'invoice_tenant', description: 'Whose invoices these are' })
  async invoiceTenant(@Param('wait') wait: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, wait));
    return `invoices of ${this.tenant}`;
  }
}

/** A transient tool provider registered by `useClass` under a string token. */
class AuditTools {
  @Tool({ name: 'audit_count', description: 'Count one audit entry' })
  count(): number {
    return 1;
  }
}

describe('ToolRegistry: custom request-scoped and transient providers (useFactory, useClass) over HTTP', () => {
  let nest: NestAgentApp;
  beforeEach(async () => {
    InvoiceTools.built = 0;
    nest = await startNestAgentApp({
      providers: [
        {
          provide: InvoiceTools,
          scope: Scope.REQUEST,
          inject: [REQUEST],
          useFactory: (request: { headers: Record<string, string | undefined> }) =>
            new InvoiceTools(request.headers['x-tenant'] ?? 'none'),
        },
        { provide: 'AUDIT_TOOLS', useClass: AuditTools, scope: Scope.TRANSIENT },
        Calculator,
      ],
    });
  });
  afterEach(() => nest.close());

  const runFor = (tenant: string, wait: number) =>
    nest.run({
      turns: [
        {
          toolCalls: [
            { id: 'i', name: 'invoice_tenant', arguments: { wait } },
            { id: 'a', name: 'audit_count' },
          ],
        },
        { text: 'done' },
      ],
      headers: { 'x-tenant': tenant },
    });

  it("discovers them by the factory's class token and the useClass class, each run getting its own instance", async () => {
    const [acme, globex] = await Promise.all([runFor('acme', 20), runFor('globex', 1)]);
    expect(acme.calls.map((c) => c.response)).toEqual(['invoices of acme', '1']);
    expect(globex.calls.map((c) => c.response)).toEqual(['invoices of globex', '1']);
    expect(InvoiceTools.built).toBe(2);
    expect(
      nest.app
        .get(ToolRegistry)
        .getTools()
        .map((t) => t.schema.function.name),
    ).toEqual(['add']);
  });
});

describe('ToolRegistry: a request-scoped factory that does not give its tool class', () => {
  const resolveError = async (provider: object) => {
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot()],
      providers: [provider as never],
    }).compile();
    const app = await moduleRef.init();
    const error = await app
      .get(ToolRegistry)
      .resolveTools()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    await app.close();
    return error as UnsupportedToolScopeError;
  };

  it('rejects naming the provider when the factory returns something else', async () => {
    const error = await resolveError({ provide: InvoiceTools, scope: Scope.REQUEST, useFactory: () => ({}) });
    expect(UnsupportedToolScopeError.isInstance(error)).toBe(true);
    expect(error.classNames).toEqual(['InvoiceTools']);
    expect(error.message).toMatch(/its factory returned an instance of Object, not an instance of InvoiceTools/);
  });

  it('rejects naming the provider and its token when it cannot be built', async () => {
    class LedgerTools {
      constructor() {
        throw new Error('no ledger database for this tenant');
      }
      @Tool({ description: 'Ledger balance' })
      balance(): number {
        return 0;
      }
    }
    const error = await resolveError({ provide: 'LEDGER', useClass: LedgerTools, scope: Scope.REQUEST });
    expect(error.classNames).toEqual(['LEDGER (LedgerTools)']);
    expect(error.message).toMatch(/tool provider LEDGER \(LedgerTools\) for this run's context: no ledger database/);
  });
});
