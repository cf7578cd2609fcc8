import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type OpenAI from 'openai';
import { runAgentLoop, type RunAgentResponse, type RunState } from '../../src';
import { mcpTools } from '../../src/mcp';

/** Where the remote server is and which model runs: the same for the run and for its resume. */
export type BookingSetup = { url: URL; client: OpenAI; model: string; stateSecret: string };

/** What a remote tool asked, for the app to show the person. */
export type RemoteQuestion = { callId: string; message: unknown; requestedSchema: unknown };

/**
 * The remote server's tools through a client that may be asked: it declares elicitation, and `mcpTools` hands the
 * question to the run instead of a handler here.
 */
async function withSeatTools<T>(url: URL, use: (tools: Awaited<ReturnType<typeof mcpTools>>) => Promise<T>) {
  const mcp = new Client(
    { name: 'bookings-agent', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  await mcp.connect(new StreamableHTTPClientTransport(url));
  try {
    return await use(await mcpTools(mcp, { prefix: 'seats_' }));
  } finally {
    await mcp.close();
  }
}

/** Start a booking: when the remote tool asks, the run pauses and its state holds the question. */
export async function startBooking(setup: BookingSetup): Promise<{ state: RunState; asked: RemoteQuestion[] }> {
  const run = await withSeatTools(setup.url, (tools) =>
    runAgentLoop({
      client: setup.client,
      body: { model: setup.model, messages: [{ role: 'user', content: 'Book me a seat on LH1.' }] },
      tools,
      stateSecret: setup.stateSecret,
    }),
  );
  const asked: RemoteQuestion[] = [];
  for (const entry of run.state.pending) {
    if (entry.kind !== 'interactive' || entry.interactive.type !== 'mcp_input') continue;
    const { message, requestedSchema } = entry.interactive;
    asked.push({ callId: entry.call.id, message, requestedSchema });
  }
  return { state: run.state, asked };
}

/** Later, in any process: the person's answer retries the remote call, and the run goes on. */
export async function answerBooking(
  setup: BookingSetup,
  state: RunState,
  callId: string,
  seat: string,
): Promise<RunAgentResponse> {
  return withSeatTools(setup.url, (tools) =>
    runAgentLoop({
      client: setup.client,
      body: { model: setup.model, messages: [] },
      tools,
      stateSecret: setup.stateSecret,
      resumeFrom: state,
      decisions: { [callId]: { answer: { action: 'accept', content: { seat } } } },
    }),
  );
}
