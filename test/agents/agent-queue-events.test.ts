import { defineAgent } from '../../src';
import type { RunEvent } from '../../src/bullmq';
import type { RecordedRequest } from '../../src/testing';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

type Message = { role: string; content?: unknown };

describe("AgentRuns' event stream of a run with an agent", () => {
  const bed = useQueueTestbed();

  it("carries each call's tool_call and tool_result once, a child's with its agentPath and its own call id", async () => {
    const runs = bed.open();
    const lookup = fakeTool('lookup', () => ({ response: 'found it' }));
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    const reply = (request: RecordedRequest) => {
      const messages = request.body.messages as Message[];
      const child = messages[0].role === 'system' && messages[0].content === 'R.';
      const answered = messages.some((m) => m.role === 'tool');
      if (child) return answered ? { text: 'child text' } : { toolCalls: [{ id: 'l1', name: 'lookup' }] };
      return answered
        ? { text: 'root text' }
        : { toolCalls: [{ id: 'call_r', name: 'research', arguments: { task: 'look' } }] };
    };
    bed.server.enqueue(reply, reply, reply, reply);
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [research] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const done = await runs.wait(runId, { timeoutMs: 60_000 });
    expect([done.status, done.text]).toEqual(['completed', 'root text']);

    const events: RunEvent[] = [];
    for await (const event of runs.events(runId)) events.push(event);
    const calls = events.flatMap((event) => {
      if (event.type === 'tool_call') return [['call', event.agentPath ?? [], event.call.id]];
      if (event.type === 'tool_result') return [['result', event.agentPath ?? [], event.callId, event.name]];
      return [];
    });
    expect(calls).toEqual([
      ['call', [], 'call_r'],
      ['call', ['call_r'], 'l1'],
      ['result', ['call_r'], 'l1', 'lookup'],
      ['result', [], 'call_r', 'research'],
    ]);
    const texts = events.flatMap((event) => (event.type === 'text' ? [[event.agentPath ?? [], event.text]] : []));
    expect(texts).toEqual([
      [['call_r'], 'child text'],
      [[], 'root text'],
    ]);
  });
});
