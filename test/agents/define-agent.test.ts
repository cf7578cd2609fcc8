import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { defineAgent, Param, runAgentLoop, type AfterToolCallEvent } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

class OrderInput {
  @Param({ description: 'The item' })
  item!: string;

  @Param({ description: 'How many' })
  @IsInt()
  @Min(1)
  qty!: number;
}

class Verdict {
  @Param({ description: 'Whether it is fine' })
  ok!: boolean;
}

describe('defineAgent', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('runs the child as a full run: instructions + the task, its own tools, the parent model; one tool message back', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found it' }));
    const parentTool = fakeTool('parent_only', () => ({ response: 'never' }));
    const research = defineAgent({
      name: 'research',
      description: 'Researches',
      instructions: 'You research.',
      tools: [lookup],
    });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 'find X' } }] });
    server.enqueue({ toolCalls: [{ id: 'c_a', name: 'lookup', arguments: {} }] });
    server.enqueue({ text: 'X is here' });
    server.enqueue({ text: 'The answer: X is here' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'parent-model', messages: [user('go')] },
      tools: [research, parentTool],
    });
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('The answer: X is here');
    const child = server.requests[1].body as {
      model: string;
      messages: unknown[];
      tools: { function: { name: string } }[];
    };
    expect(child.model).toBe('parent-model');
    expect(child.messages).toEqual([
      { role: 'system', content: 'You research.' },
      { role: 'user', content: 'find X' },
    ]);
    expect(child.tools.map((t) => t.function.name)).toEqual(['lookup']);
    expect(lookup.calls).toHaveLength(1);
    // The parent's model sees one call and one tool message: the child's text.
    const parentLast = server.requests[3].body.messages as { role: string; content?: unknown }[];
    expect(parentLast.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'X is here' },
    ]);
    assertValidRequests(server.requests);
  });

  it('validates a DTO input with path: message lines and starts no child; a valid one is the user message as JSON', async () => {
    const order = defineAgent({
      name: 'order',
      description: 'Orders',
      input: OrderInput,
      instructions: (input) => `Order ${input.qty} of ${input.item}`,
      tools: [],
    });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'order', arguments: { item: 'pen', qty: 0 } }] });
    server.enqueue({ toolCalls: [{ id: 'call_2', name: 'order', arguments: { item: 'pen', qty: 2 } }] });
    server.enqueue({ text: 'ordered' });
    server.enqueue({ text: 'done' });
    const ends: AfterToolCallEvent[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [order],
      onAfterToolCall: (e) => ends.push(e),
    });
    expect(result.stopReason).toBe('completed');
    expect(ends.filter((e) => !e.agentPath)[0]).toMatchObject({ outcome: 'invalid_arguments' });
    expect(ends.filter((e) => !e.agentPath)[0].response).toMatch(/^Invalid arguments for tool "order":\nqty: /);
    expect(server.requests).toHaveLength(4);
    expect(server.requests[2].body.messages).toEqual([
      { role: 'system', content: 'Order 2 of pen' },
      { role: 'user', content: JSON.stringify({ item: 'pen', qty: 2 }) },
    ]);
  });

  it('answers with the typed output as JSON', async () => {
    const judge = defineAgent({
      name: 'judge',
      description: 'Judges',
      instructions: 'Judge.',
      tools: [],
      output: Verdict,
    });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'judge', arguments: { task: 'is it fine?' } }] });
    server.enqueue({ text: '{"ok": true}' });
    server.enqueue({ text: 'fine' });
    await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools: [judge] });
    const tool = (server.requests[2].body.messages as { role: string; content?: unknown }[]).find(
      (m) => m.role === 'tool',
    );
    expect(tool?.content).toBe('{"ok":true}');
  });

  it('answers a failed child as Tool error: agent <name> failed, and a throwing instructions like any throwing tool', async () => {
    const broken = defineAgent({ name: 'broken', description: 'Fails', instructions: 'x', tools: [] });
    const throwing = defineAgent({
      name: 'throwing',
      description: 'Throws',
      instructions: () => {
        throw new Error('no instructions today');
      },
      tools: [],
    });
    server.enqueue({
      toolCalls: [
        { id: 'call_1', name: 'broken', arguments: { task: 't' } },
        { id: 'call_2', name: 'throwing', arguments: { task: 't' } },
      ],
    });
    server.enqueue({ status: 400, errorMessage: 'bad request from child' });
    server.enqueue({ text: 'ok' });
    const ends: AfterToolCallEvent[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [broken, throwing],
      onAfterToolCall: (e) => ends.push(e),
    });
    expect(result.stopReason).toBe('completed');
    const tools = (server.requests[2].body.messages as { role: string; content?: string }[]).filter(
      (m) => m.role === 'tool',
    );
    expect(tools[0].content).toMatch(/^Tool error: agent broken failed: .*bad request from child/);
    expect(tools[1].content).toBe('Tool error: no instructions today');
    expect(ends.filter((e) => !e.agentPath).map((e) => e.outcome)).toEqual(['ok', 'error']);
  });
});
