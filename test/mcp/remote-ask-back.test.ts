import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runAgentLoop, type RunState, type ToolExecuteResult } from '../../src';
import { mcpTools } from '../../src/mcp';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { answerBooking, startBooking } from '../../samples/mcp/remote-ask-back';
import { serveSeats, type SeatServer, type SeatTools } from './fixtures/seat-server';

const RUN_SECRET = 'the-run-state-secret-0123456789abcdefghij';

/** A fresh 2026-07-28 client, as a process that resumes the run would make; its own elicitation handler must stay unused. */
async function connect(remote: SeatServer, asked: string[]): Promise<Client> {
  const client = new Client(
    { name: 'loop', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'decline' };
  });
  await client.connect(new StreamableHTTPClientTransport(remote.url));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

const BOOK = { id: 'call_book', name: 'seats_book', arguments: { flight: 'LH1' } };

describe('a remote tool that asks back (2026-07-28 input_required)', () => {
  let seats: SeatTools;
  let remote: SeatServer;
  let model: ScriptedServer;
  const clients: Client[] = [];
  const asked: string[] = [];

  beforeEach(async () => {
    remote = await serveSeats();
    seats = remote.seats;
    asked.length = 0;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await model?.close();
    await remote.close();
  });

  async function toolsOf() {
    const client = await connect(remote, asked);
    clients.push(client);
    return mcpTools(client, { prefix: 'seats_' });
  }

  /** A tool journal both runs share, as a queue's workers share theirs. */
  const journaled = new Map<string, ToolExecuteResult>();
  const journal = {
    get: async (key: string) => journaled.get(key),
    set: async (key: string, result: ToolExecuteResult) => void journaled.set(key, result),
  };

  async function pause(): Promise<RunState> {
    journaled.clear();
    const paused = await runAgentLoop({
      client: model.client(),
      body: { model: 'scripted', messages: [{ role: 'user', content: 'Book me a seat on LH1.' }] },
      tools: await toolsOf(),
      stateSecret: RUN_SECRET,
      journal,
    });
    expect(paused.error).toBeUndefined();
    expect(paused.stopReason).toBe('interactive');
    // What another process reads back from a store.
    return JSON.parse(JSON.stringify(paused.state)) as RunState;
  }

  it('pauses the run on the question, and a fresh run resumed with { answer } retries it with the answer', async () => {
    model = await startScriptedServer({ turns: [{ toolCalls: [BOOK] }, { text: 'Your seat is 12A.' }] });
    const state = await pause();
    expect(state.pending).toHaveLength(1);
    const [entry] = state.pending;
    expect(entry).toMatchObject({
      kind: 'interactive',
      call: { id: 'call_book' },
      interactive: {
        type: 'mcp_input',
        message: 'Which seat on LH1?',
        requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
      },
    });
    // The retry's needs stay with the call, out of what the person is shown.
    expect(entry.kind === 'interactive' && entry.resumeData).toEqual({
      inputKey: expect.any(String),
      requestState: expect.any(String),
    });
    expect(JSON.stringify(entry.kind === 'interactive' && entry.interactive)).not.toContain('requestState');
    expect(model.requests).toHaveLength(1);

    const resumed = await runAgentLoop({
      client: model.client(),
      body: { model: 'scripted', messages: [] },
      tools: await toolsOf(),
      stateSecret: RUN_SECRET,
      resumeFrom: state,
      decisions: { call_book: { answer: { action: 'accept', content: { seat: '12A' } } } },
      // A paused call has not finished: the journal holds nothing of it, and keeps what it ends with.
      journal,
    });
    expect(resumed.error).toBeUndefined();
    expect(resumed.stopReason).toBe('completed');
    expect(resumed.state.pending).toEqual([]);
    expect(seats.answers).toEqual([undefined, { action: 'accept', content: { seat: '12A' } }]);
    const toolMessages = model.requests[1].body.messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toEqual([{ role: 'tool', tool_call_id: 'call_book', content: 'Booked 12A on LH1' }]);
    expect(resumed.completeMessages.at(-1)).toMatchObject({ role: 'assistant', content: 'Your seat is 12A.' });
    // Nobody was asked in process: the question waited in the run state.
    expect(asked).toEqual([]);
    expect([...journaled.values()].map((result) => result.response)).toEqual(['Booked 12A on LH1']);
  });

  it('sends a decline as the input response, without content', async () => {
    model = await startScriptedServer({ turns: [{ toolCalls: [BOOK] }, { text: 'Nothing booked.' }] });
    const state = await pause();
    const resumed = await runAgentLoop({
      client: model.client(),
      body: { model: 'scripted', messages: [] },
      tools: await toolsOf(),
      stateSecret: RUN_SECRET,
      resumeFrom: state,
      decisions: { call_book: { answer: { action: 'decline', content: { seat: 'ignored' } } } },
    });
    expect(resumed.stopReason).toBe('completed');
    expect(seats.answers.at(-1)).toEqual({ action: 'decline' });
    const toolMessages = model.requests[1].body.messages.filter((message) => message.role === 'tool');
    expect(toolMessages[0].content).toBe('No seat booked on LH1 (decline)');
  });

  it('refuses a malformed answer, naming it, and keeps the call pending', async () => {
    model = await startScriptedServer({ turns: [{ toolCalls: [BOOK] }] });
    const state = await pause();
    const resumed = await runAgentLoop({
      client: model.client(),
      body: { model: 'scripted', messages: [] },
      tools: await toolsOf(),
      stateSecret: RUN_SECRET,
      resumeFrom: state,
      decisions: { call_book: { answer: { action: 'maybe' } } } as never,
    });
    expect(resumed.stopReason).toBe('error');
    expect(String(resumed.error)).toContain(
      `decisions["call_book"].answer action must be 'accept', 'decline' or 'cancel'`,
    );
    expect(seats.answers).toEqual([undefined]);
    expect(model.requests).toHaveLength(1);
  });

  it('refuses a state whose kept requestState was edited, when it is signed', async () => {
    model = await startScriptedServer({ turns: [{ toolCalls: [BOOK] }] });
    const state = await pause();
    const entry = state.pending[0];
    if (entry.kind === 'interactive') entry.resumeData = { inputKey: 'x', requestState: 'forged' };
    const resumed = await runAgentLoop({
      client: model.client(),
      body: { model: 'scripted', messages: [] },
      tools: await toolsOf(),
      stateSecret: RUN_SECRET,
      resumeFrom: state,
      decisions: { call_book: { answer: { action: 'accept', content: { seat: '1A' } } } },
    });
    expect(resumed.stopReason).toBe('error');
    expect(resumed.error).toMatchObject({ name: 'RunStateSignatureError' });
    expect(seats.answers).toEqual([undefined]);
  });

  it('runs as the sample shows: the question out of the state, the answer back in', async () => {
    model = await startScriptedServer({ turns: [{ toolCalls: [BOOK] }, { text: 'Seat 3C it is.' }] });
    const setup = { url: remote.url, client: model.client(), model: 'scripted', stateSecret: RUN_SECRET };
    const { state, asked } = await startBooking(setup);
    expect(asked).toEqual([
      {
        callId: 'call_book',
        message: 'Which seat on LH1?',
        requestedSchema: expect.objectContaining({ type: 'object' }),
      },
    ]);
    const done = await answerBooking(setup, JSON.parse(JSON.stringify(state)) as RunState, 'call_book', '3C');
    expect(done.stopReason).toBe('completed');
    expect(seats.answers.at(-1)).toEqual({ action: 'accept', content: { seat: '3C' } });
  });

  it("leaves a 2025-11-25 session's elicitation to the client's own handler, in process: the run does not pause", async () => {
    model = await startScriptedServer({ turns: [{ toolCalls: [BOOK] }, { text: 'Seat 7F.' }] });
    const client = new Client({ name: 'loop', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { seat: '7F' } };
    });
    await client.connect(new StreamableHTTPClientTransport(remote.url));
    clients.push(client);
    expect(client.getProtocolEra()).toBe('legacy');
    const run = await runAgentLoop({
      client: model.client(),
      body: { model: 'scripted', messages: [{ role: 'user', content: 'Book me a seat on LH1.' }] },
      tools: await mcpTools(client, { prefix: 'seats_' }),
    });
    expect(run.stopReason).toBe('completed');
    expect(run.state.pending).toEqual([]);
    expect(asked).toEqual(['Which seat on LH1?']);
    const toolMessages = model.requests[1].body.messages.filter((message) => message.role === 'tool');
    expect(toolMessages[0].content).toBe('Booked 7F on LH1');
  });
});
