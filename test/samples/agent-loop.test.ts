import { resumeRun, startRun } from '../../samples/agent-loop/pause-and-resume';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import type { ToolDefinition } from '../../src';

describe('samples/agent-loop/pause-and-resume', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const askUser: ToolDefinition<{ question: string }> = {
    schema: { type: 'function', function: { name: 'ask_user', parameters: { type: 'object', properties: {} } } },
    execute: async ({ params }) => ({
      response: 'Waiting for the user',
      interactive: { type: 'userInput', question: params.question },
    }),
  };

  it('stores a paused run as JSON and resumes it with the answer as the tool message', async () => {
    server.enqueue({ toolCalls: [{ id: 'ask1', name: 'ask_user', arguments: { question: 'Which city?' } }] });
    const saved = await startRun(server.client(), [askUser], 'Book me a hotel');
    expect(JSON.parse(saved!)).toMatchObject({
      childrenResponse: { type: 'userInput', question: 'Which city?' },
      toolParams: { toolCallId: 'ask1' },
    });

    server.enqueue({ text: 'Booked a hotel in Lisbon.' });
    const resumed = await resumeRun(server.client(), [askUser], saved!, 'Lisbon');
    expect(server.requests[1].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'ask1',
      content: 'The user answered: Lisbon',
    });
    expect(resumed.stopReason).toBe('completed');
  });

  it('returns nothing to store when no tool paused the run', async () => {
    server.enqueue({ text: 'Hello.' });
    expect(await startRun(server.client(), [askUser], 'Hi')).toBeUndefined();
  });
});
