// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import OpenAI from 'openai';
import { startScriptedServer } from '../../src/testing';
import { askWithDeferredTools, type StdioServerCommand } from './deferred-tools-agent';

/** The protocol's reference server, a dev dependency of this repository. */
const EVERYTHING: StdioServerCommand = {
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

const PROMPT = 'What is (2 + 3) × 7? Add with a tool of the remote server, multiply with calculate.';

/**
 * `node .demo/samples/tool-search/main.js`: the reference MCP server's tools, deferred. Without OPENAI_API_KEY a
 * scripted model searches for a tool that adds, calls the one it found, then multiplies locally; the tools each
 * request carried are printed.
 */
async function main(): Promise<void> {
  if (process.env.OPENAI_API_KEY) {
    const model = process.env.OPENAI_MODEL || 'gpt-4o-mini';
    const result = await askWithDeferredTools({ server: EVERYTHING, client: new OpenAI(), model, prompt: PROMPT });
    console.log(`${result.text}\nfound: ${(result.state.foundTools ?? []).join(', ')}`);
    return;
  }
  const scripted = await startScriptedServer({
    turns: [
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'sum of two numbers' } }] },
      { toolCalls: [{ name: 'everything_get-sum', arguments: { a: 2, b: 3 } }] },
      { toolCalls: [{ name: 'calculate', arguments: { a: 5, op: 'multiply', b: 7 } }] },
      { text: '(2 + 3) × 7 = 35.' },
    ],
  });
  try {
    const result = await askWithDeferredTools({
      server: EVERYTHING,
      client: scripted.client(),
      model: 'scripted',
      prompt: PROMPT,
    });
    const answer = result.completeMessages.find((message) => message.role === 'tool')?.content;
    console.log(`search_tools answered:\n${typeof answer === 'string' ? answer : ''}`);
    scripted.requests.forEach((request, i) => {
      const names = (request.body.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : ''));
      console.log(`request ${i + 1} sent: ${names.join(', ')}`);
    });
    console.log(`${result.text}\nfound: ${(result.state.foundTools ?? []).join(', ')}`);
  } finally {
    await scripted.close();
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
