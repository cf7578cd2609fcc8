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
