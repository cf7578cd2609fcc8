import 'reflect-metadata';
import { Injectable, Scope, UseGuards, type CanActivate } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { runAgentLoop } from '../../src/run-agent-loop';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { AgentToolsModule, ToolRegistry } from '../../src/nestjs';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

/** A service the tools depend on, so the test sees that deferred tools run on Nest's own instances. */
@Injectable()
class Ledger {
  readonly entries: string[] = [];
}

/** Refuses every call: a deferred tool is found like any other, and still runs through its guards. */
class NeverGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
class BillingTools {
  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'The balance of the account' })
  balance(): string {
    return `balance ${this.ledger.entries.length}`;
  }

  @Tool({ name: 'refund_invoice', description: 'Refund one invoice by its number', deferred: true })
  refund(@Param('invoice') invoice: string): string {
    this.ledger.entries.push(`refund ${invoice}`);
    return `refunded ${invoice}`;
  }

  @UseGuards(NeverGuard)
  @Tool({ name: 'close_account', description: 'Close the account for good', deferred: true })
  close(): string {
    return 'closed';
  }
}

/** A fresh instance per run: its deferred tool comes through `resolveTools`. */
@Injectable({ scope: Scope.TRANSIENT })
class ExportTools {
  @Tool({ name: 'export_report', description: 'Export the yearly report as a spreadsheet', deferred: true })
  exportReport(): string {
    return 'exported';
  }
}

const names = (request: RecordedRequest): string[] =>
  (request.body.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : tool.type));

describe('@Tool({ deferred: true }) through the Nest ToolRegistry', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const start = async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot()],
      providers: [Ledger, BillingTools, ExportTools],
    }).compile();
    return moduleRef.init();
  };

  it('keeps the flag on the registry tools, singleton and transient alike', async () => {
    const app = await start();
    const registry = app.get(ToolRegistry);
    const flags = (tools: { schema: { function: { name: string } }; deferred?: boolean }[]) =>
      tools.map((tool) => [tool.schema.function.name, tool.deferred === true]);
    expect(flags(registry.getTools())).toEqual([
      ['balance', false],
      ['refund_invoice', true],
      ['close_account', true],
    ]);
    expect(flags(await registry.resolveTools())).toEqual([
      ['balance', false],
      ['refund_invoice', true],
      ['close_account', true],
      ['export_report', true],
    ]);
    await app.close();
  });

  it('runs a loop over resolveTools: deferred tools are found, then sent, and run on Nest instances through their guards', async () => {
    const app = await start();
    const registry = app.get(ToolRegistry);
    server.enqueue(
      { toolCalls: [{ id: 's1', name: 'search_tools', arguments: { query: 'refund invoice' } }] },
      { toolCalls: [{ id: 'r1', name: 'refund_invoice', arguments: { invoice: 'A-7' } }] },
      {
        toolCalls: [
          { id: 'e1', name: 'export_report' },
          { id: 'c1', name: 'close_account' },
        ],
      },
      { text: 'done' },
    );
    const outcomes: string[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('refund A-7, export, close')] },
      tools: await registry.resolveTools(),
      onAfterToolCall: (e) => outcomes.push(`${e.call.function.name}:${e.outcome}`),
    });

    expect(result.stopReason).toBe('completed');
    expect(server.requests.map(names)).toEqual([
      ['balance', 'search_tools'],
      ['balance', 'search_tools', 'refund_invoice'],
      ['balance', 'search_tools', 'refund_invoice'],
      ['balance', 'search_tools', 'refund_invoice', 'export_report', 'close_account'],
    ]);
    expect(outcomes).toEqual(['search_tools:ok', 'refund_invoice:ok', 'export_report:ok', 'close_account:rejected']);
    expect(app.get(Ledger).entries).toEqual(['refund A-7']);
    expect(result.state.foundTools).toEqual(['refund_invoice', 'export_report', 'close_account']);
    await app.close();
  });
});
