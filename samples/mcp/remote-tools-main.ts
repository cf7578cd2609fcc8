// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import OpenAI from 'openai';
import { startScriptedServer } from '../../src/testing';
import { askWithRemoteTools, type StdioServerCommand } from './remote-tools-agent';

/** The protocol's reference server, a dev dependency of this repository. */
const EVERYTHING: StdioServerCommand = {
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

/**
 * `node .demo/samples/mcp/remote-tools-main.js [command args…]`: the sample agent with the tools of an MCP server
 * (by default the reference "everything" server). Without OPENAI_API_KEY a scripted model adds with the remote
 * `get-sum` and multiplies with the local `calculate`.
 */
async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const server = command ? { command, args } : EVERYTHING;
  const prompt = 'What is (2 + 3) × 7? Add with the remote tool, multiply with the local one.';
  if (process.env.OPENAI_API_KEY) {
    const client = new OpenAI();
    const model = process.env.OPENAI_MODEL || 'gpt-4o-mini';
    await askWithRemoteTools({ server, prompt, client, model, out: process.stdout });
    return;
  }
  const scripted = await startScriptedServer({
    turns: [
      { toolCalls: [{ name: 'remote_get-sum', arguments: { a: 2, b: 3 } }] },
      { toolCalls: [{ name: 'calculate', arguments: { a: 5, op: 'multiply', b: 7 } }] },
      { text: '(2 + 3) × 7 = 35.' },
    ],
  });
  try {
    await askWithRemoteTools({ server, prompt, client: scripted.client(), model: 'scripted', out: process.stdout });
  } finally {
    await scripted.close();
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
