import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type OpenAI from 'openai';
import { Param, runAgentLoop, Tool, toolsFrom, type RunAgentResponse } from '../../src';
import { mcpTools } from '../../src/mcp';
import { CalculatorTools } from '../tools/calculator.tools';

/** A local tool the model rarely needs: kept out of the requests until the model finds it. */
export class ReportTools {
  @Tool({ description: 'Export the yearly sales report as a CSV file', deferred: true })
  exportYearlyReport(@Param('year') year: number): string {
    return `sales-${year}.csv`;
  }
}

/** How to start the MCP server whose tools the agent may search. */
export type StdioServerCommand = { command: string; args: string[] };

/** What {@link askWithDeferredTools} needs. */
export type DeferredToolsRun = { server: StdioServerCommand; client: OpenAI; model: string; prompt: string };

/**
 * One prompt with a remote MCP server's tools all deferred, next to local tools: the model is sent `calculate`
 * and `search_tools`, and finds the rest when it needs them.
 */
export async function askWithDeferredTools(run: DeferredToolsRun): Promise<RunAgentResponse> {
  const mcp = new Client({ name: 'agentcall-tool-search', version: '1.0.0' });
  await mcp.connect(new StdioClientTransport({ ...run.server, stderr: 'ignore' }));
  try {
    // Every remote tool is deferred: none is sent until the model finds it with search_tools.
    const remote = await mcpTools(mcp, { prefix: 'everything_', deferred: true, exclude: ['get-env'] });
    return await runAgentLoop({
      client: run.client,
      body: { model: run.model, messages: [{ role: 'user', content: run.prompt }] },
      tools: [...toolsFrom(new CalculatorTools(), new ReportTools()), ...remote],
      maxRunAgentTimes: 8,
    });
  } finally {
    await mcp.close();
  }
}
