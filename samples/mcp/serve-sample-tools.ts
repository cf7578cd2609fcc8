// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { toolsFrom } from '../../src';
import { serveStdio } from '../../src/mcp';
import { CalculatorTools, FakeWeatherDataSource, TodoStore, TodoTools, WeatherTools } from '../tools';

/**
 * The sample tools as an MCP server on stdio, for any MCP host (a desktop assistant, an IDE, the MCP Inspector).
 * `ask_user` stays out: pausing for the user is the agent loop's job, and a host asks its user itself.
 */
async function main(): Promise<void> {
  const tools = toolsFrom(
    new WeatherTools(new FakeWeatherDataSource()),
    new CalculatorTools(),
    new TodoTools(new TodoStore()),
  );
  await serveStdio(tools, { name: 'agentcall-samples', version: '1.0.0', defaultTimeoutMs: 10_000 });
  // stdout carries the protocol; anything meant for people goes to stderr.
  console.error(`agentcall sample tools: ${tools.length} tools on stdio`);
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
