import { runAgentLoop } from '../../src/run-agent-loop';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

describe('runAgentLoop interactive pause and resume', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const askUser = () =>
    fakeTool<{ question: string }>('ask_user', ({ params }) => ({
      response: 'Waiting for the user…',
      interactive: { type: 'userInput', question: params.question },
    }));

  it('pauses on an interactive tool, then resumes with the answer in place of the tool message', async () => {
    server.enqueue({
      text: 'Let me ask.',
      toolCalls: [{ id: 'ask1', name: 'ask_user', arguments: { question: 'Which city?' } }],
    });
    const ask = askUser();
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('Book me a hotel')] },
      tools: [ask],
    });

    expect(paused.stopReason).toBe('interactive');
    expect(server.requests).toHaveLength(1);
    const saved = paused.interactiveResponse!;
    expect(saved.type).toBe('toolChildrenInteractive');
    expect(saved.params.childrenResponse).toEqual({ type: 'userInput', question: 'Which city?' });
    expect(saved.params.toolParams.toolCallId).toBe('ask1');
    expect(saved.params.toolParams.memoryRequestMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);

    // The caller persists `saved` (it survives JSON) and resumes on the user's next message.
    const restored = JSON.parse(JSON.stringify(saved.params));
    server.enqueue({ text: 'Booked a hotel in Lisbon.' });
    const handled: unknown[] = [];
    const afterToolCall: string[] = [];
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('ignored on resume')] },
      tools: [ask],
      childrenInteractiveParams: restored,
      handleInteractiveTool: async (params) => {
        handled.push(params.childrenResponse);
        return { response: 'The user chose Lisbon', usages: [{ moduleName: 'ask_user', totalPoints: 1 }] };
      },
      onAfterToolCall: ({ call, response }) => afterToolCall.push(`${call.id}:${response}`),
    });

    expect(handled).toEqual([{ type: 'userInput', question: 'Which city?' }]);
    expect(afterToolCall).toEqual(['ask1:The user chose Lisbon']);
    expect(server.requests[1].body.messages).toEqual([
      user('Book me a hotel'),
      {
        role: 'assistant',
        content: 'Let me ask.',
        tool_calls: [
          { id: 'ask1', type: 'function', function: { name: 'ask_user', arguments: '{"question":"Which city?"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'ask1', content: 'The user chose Lisbon' },
    ]);
    expect(resumed.stopReason).toBe('completed');
    expect(resumed.interactiveResponse).toBeUndefined();
    expect(resumed.usages[0]).toEqual({ moduleName: 'ask_user', totalPoints: 1 });
    expect(resumed.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'Booked a hotel in Lisbon.' });
    // The saved history was not changed by the resume.
    expect(saved.params.toolParams.memoryRequestMessages.at(-1)?.content).toBe('Waiting for the user…');
  });

  it('pauses again when the resumed tool asks another question, without calling the model', async () => {
    server.enqueue({ toolCalls: [{ id: 'ask1', name: 'ask_user', arguments: { question: 'City?' } }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [askUser()],
    });
    const again = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [askUser()],
      childrenInteractiveParams: paused.interactiveResponse!.params,
      handleInteractiveTool: async () => ({
        response: 'Need dates too',
        interactive: { type: 'userInput', question: 'Dates?' },
      }),
    });
    expect(again.stopReason).toBe('interactive');
    expect(server.requests).toHaveLength(1);
    expect(again.interactiveResponse?.params.toolParams.toolCallId).toBe('ask1');
    expect(again.interactiveResponse?.params.childrenResponse).toEqual({ type: 'userInput', question: 'Dates?' });
    expect(again.interactiveResponse?.params.toolParams.memoryRequestMessages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'ask1',
      content: 'Need dates too',
    });
  });

  it('ends on resume when the resumed tool returns stop', async () => {
    server.enqueue({ toolCalls: [{ id: 'ask1', name: 'ask_user', arguments: { question: 'Proceed?' } }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [askUser()],
    });
    const stopped = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [askUser()],
      childrenInteractiveParams: paused.interactiveResponse!.params,
      handleInteractiveTool: async () => ({ response: 'User cancelled', stop: true }),
    });
    expect(stopped.stopReason).toBe('tool_stop');
    expect(server.requests).toHaveLength(1);
    expect(stopped.completeMessages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'ask1', content: 'User cancelled' });
  });

  it('turns a throwing resume handler into a tool error the model reads', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'ask1', name: 'ask_user', arguments: { question: 'x' } }] },
      { text: 'Sorry about that.' },
    );
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [askUser()],
    });
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [askUser()],
      childrenInteractiveParams: paused.interactiveResponse!.params,
      handleInteractiveTool: async () => {
        throw new Error('session expired');
      },
    });
    expect(server.requests[1].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'ask1',
      content: 'Tool error: session expired',
    });
    expect(resumed.stopReason).toBe('completed');
  });

  it('resumes childrenInteractiveParams as a state with the paused call pending: a new pause resumes through resumeFrom', async () => {
    server.enqueue({ toolCalls: [{ id: 'ask1', name: 'ask_user', arguments: { question: 'City?' } }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [askUser()],
      runId: 'run-seed',
    });
    const checkpoints: string[] = [];
    const again = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [askUser()],
      runId: 'run-seed',
      childrenInteractiveParams: paused.interactiveResponse!.params,
      handleInteractiveTool: async () => ({
        response: 'Need dates',
        interactive: { type: 'userInput', question: 'Dates?' },
      }),
      onCheckpoint: (state) => void checkpoints.push(JSON.stringify(state.pending.map((p) => [p.kind, p.call.id]))),
    });
    expect(again.stopReason).toBe('interactive');
    expect(again.state.runId).toBe('run-seed');
    expect(again.state.pending).toEqual([
      expect.objectContaining({ kind: 'interactive', call: expect.objectContaining({ id: 'ask1' }) }),
    ]);
    expect(checkpoints).toEqual(['[["interactive","ask1"]]']);

    server.enqueue({ text: 'Booked for Monday.' });
    const done = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [askUser()],
      resumeFrom: JSON.parse(JSON.stringify(again.state)) as typeof again.state,
      decisions: { ask1: { answer: { response: 'Monday' } } },
    });
    expect(done.stopReason).toBe('completed');
    expect(server.requests.at(-1)!.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'ask1',
      content: 'Monday',
    });
  });
});
