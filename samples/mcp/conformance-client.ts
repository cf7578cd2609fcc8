// The client the official MCP conformance suite runs for its client scenarios: `conformance client --command
// "<this program>"` starts it with a mock server's URL (and the scenario's name and context in the environment).
import 'reflect-metadata';
import type { ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { runTool } from '../../src';
import { mcpTools } from '../../src/mcp';
import { connectClient, InMemoryOAuthProvider } from './connect-client';

/** Arguments for the tools the suite's mock servers list; any other tool is called with none. */
const ARGUMENTS: Readonly<Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };

/** The client id metadata document the suite's authorization server accepts as a client id. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** What the suite hands a client in `MCP_CONFORMANCE_CONTEXT`: pre-registered credentials, in some scenarios. */
type ScenarioContext = { client_id?: string; client_secret?: string };

/** The authorization server of a test approves at once: its redirect carries the code. */
async function followRedirect(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`no authorization code from ${url.origin}`);
  return code;
}

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) throw new Error('usage: conformance-client <server url>');
  const url = new URL(target);
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ScenarioContext;
  const redirect = 'http://localhost:3000/callback';
  const auth = new InMemoryOAuthProvider(
    { client_name: 'agentcall-conformance', redirect_uris: [redirect] },
    followRedirect,
    {
      clientMetadataUrl: CLIENT_METADATA_URL,
      ...(context.client_id && {
        preRegistered: {
          client_id: context.client_id,
          client_secret: context.client_secret,
          redirect_uris: [redirect],
        },
      }),
    },
  );
  const { client, finishLogin, withLogin } = await connectClient({
    url,
    auth,
    // Accept with no fields of its own: the client fills in the schema's defaults.
    elicit: async () => ({ action: 'accept', content: {} }),
  });
  try {
    const tools = await withLogin(() => mcpTools(client));
    for (const tool of tools) {
      const name = tool.schema.function.name;
      const call: ChatCompletionMessageToolCall = {
        id: `call_${name}`,
        type: 'function',
        function: { name, arguments: JSON.stringify(ARGUMENTS[name] ?? {}) },
      };
      let result = await runTool({ call, messages: [], tools });
      // A server that wants a wider scope for this tool sent the client to log in again: finish it and retry.
      if (result.outcome === 'error' && (await finishLogin())) result = await runTool({ call, messages: [], tools });
      console.error(`${name}: ${result.outcome}`);
    }
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
