import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type OpenAI from 'openai';
import { runAgentLoop, type RunAgentResponse } from '../../src';
import { mcpTools } from '../../src/mcp';
import { TerminalRenderer, type Output } from '../demo/renderer';
import { sampleTools } from '../tools';

/** How to start the MCP server whose tools the agent borrows. */
export type StdioServerCommand = { command: string; args: string[]; env?: Record<string, string> };

/** What {@link askWithRemoteTools} needs. */
export type RemoteToolsRun = {
  server: StdioServerCommand;
  prompt: string;
  client: OpenAI;
  model: string;
  out: Output;
};

/**
 * The demo's loop with a remote server's tools next to the local sample tools: start the server over stdio,
 * read its tools with `mcpTools` (prefixed `remote_`), and run one prompt. To the loop the two kinds are the same.
 */
export async function askWithRemoteTools(run: RemoteToolsRun): Promise<RunAgentResponse> {
  const mcp = new Client({ name: 'agentcall-demo', version: '1.0.0' });
  await mcp.connect(new StdioClientTransport({ ...run.server, stderr: 'ignore' }));
  try {
    const remote = await mcpTools(mcp, { prefix: 'remote_', exclude: ['get-env'] });
    const renderer = new TerminalRenderer(run.out, false);
    renderer.note(`${remote.length} remote tools: ${remote.map((tool) => tool.schema.function.name).join(', ')}`);
    const result = await runAgentLoop({
      client: run.client,
      body: { model: run.model, messages: [{ role: 'user', content: run.prompt }] },
      tools: [...sampleTools(), ...remote],
      maxRunAgentTimes: 8,
      ...renderer.hooks(),
    });
    renderer.summary(result);
    return result;
  } finally {
    await mcp.close();
  }
}
