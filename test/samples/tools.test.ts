import { runTool } from '../../src/toolCall/run-tool';
import type { ToolExecuteResult } from '../../src/toolCall/type';
import { sampleTools, TodoStore } from '../../samples/tools';

describe('sample tools', () => {
  let store: TodoStore;
  let run: (name: string, args: object | string) => Promise<ToolExecuteResult>;
  beforeEach(() => {
    store = new TodoStore();
    const tools = sampleTools(store);
    let n = 0;
    run = (name, args) =>
      runTool({
        call: {
          id: `c${n++}`,
          type: 'function',
          function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
        },
        messages: [],
        tools,
      });
  });

  it('exposes every tool under its model-facing name', () => {
    expect(sampleTools().map((t) => t.schema.function.name)).toEqual([
      'get_weather',
      'get_forecast',
      'calculate',
      'sum',
      'add_todo',
      'list_todos',
      'complete_todo',
      'delete_todo',
      'share_todo',
      'ask_user',
      'finish',
    ]);
  });

  it('answers weather from the injected source, and explains an unknown city', async () => {
    expect(JSON.parse((await run('get_weather', { city: 'paris' })).response)).toEqual({
      city: 'Paris',
      temperatureC: 12,
      conditions: 'light rain',
    });
    expect((await run('get_weather', { city: 'Atlantis' })).response).toBe(
      'Tool error: Unknown city "Atlantis". Known cities: Paris, Rome, Oslo, Tokyo, New York',
    );
    expect((await run('get_forecast', { city: 'Rome', days: 2 })).response).toBe(
      'Rome forecast\nday 1: 22°C, sunny\nday 2: 20°C, clear',
    );
    expect((await run('get_forecast', { city: 'Rome', days: 9 })).response).toMatch(
      /days: days must not be greater than 7/,
    );
  });

  it('calculates, and turns a division by zero into a tool error', async () => {
    expect((await run('calculate', { a: 6, op: 'multiply', b: 7 })).response).toBe('42');
    expect((await run('calculate', { a: 1, op: 'divide', b: 0 })).response).toBe('Tool error: Division by zero');
    expect((await run('calculate', { a: 1, op: 'power', b: 2 })).response).toMatch(/op: /);
    expect((await run('sum', { numbers: [1, 2, 3.5] })).response).toBe('6.5');
    expect((await run('sum', { numbers: [] })).response).toMatch(/numbers: /);
  });

  it('keeps a to-do list, with validation the model can correct and ownerId kept away', async () => {
    const bad = await run('add_todo', { title: '', priority: 'urgent' });
    expect(bad.response).toMatch(/title: /);
    expect(bad.response).toMatch(/priority: /);
    expect(store.list()).toEqual([]);

    const added = JSON.parse(
      (await run('add_todo', { title: 'Pack an umbrella', priority: 'high', due: '2026-12-01' })).response,
    );
    expect(added).toEqual({
      id: 'todo-1',
      title: 'Pack an umbrella',
      priority: 'high',
      due: '2026-12-01',
      tags: [],
      done: false,
    });
    await run('add_todo', { title: 'Buy milk' });
    expect(JSON.parse((await run('complete_todo', { id: 'todo-1' })).response).done).toBe(true);
    expect(JSON.parse((await run('list_todos', {})).response).map((t: { id: string }) => t.id)).toEqual(['todo-2']);
    expect(JSON.parse((await run('list_todos', { status: 'done' })).response).map((t: { id: string }) => t.id)).toEqual(
      ['todo-1'],
    );
    expect((await run('complete_todo', { id: '1' })).response).toMatch(/id must look like "todo-1"/);
    expect((await run('delete_todo', { id: 'todo-2' })).response).toBe('Deleted todo-2');
    expect((await run('delete_todo', { id: 'todo-2' })).response).toBe('Tool error: No to-do item todo-2');
    expect(store.list().map((t) => t.id)).toEqual(['todo-1']);
  });

  it('shares a to-do only after approval: share_todo needs it, the other to-do tools do not', async () => {
    const tools = sampleTools(store);
    const needing = tools.filter((t) => t.needsApproval).map((t) => t.schema.function.name);
    expect(needing).toEqual(['share_todo']);
    await run('add_todo', { title: 'Buy milk' });
    expect((await run('share_todo', { id: 'todo-1', email: 'alex@example.com' })).response).toBe(
      'Shared todo-1 ("Buy milk") with alex@example.com',
    );
    expect((await run('share_todo', { id: 'todo-1', email: 'not an address' })).response).toMatch(/email/);
  });

  it('pauses with ask_user and stops with finish', async () => {
    expect(await run('ask_user', { question: 'Which city?', options: ['Paris', 'Rome'] })).toEqual({
      outcome: 'ok',
      response: 'Asked the user: Which city?',
      interactive: { type: 'userInput', question: 'Which city?', options: ['Paris', 'Rome'] },
    });
    expect(await run('finish', { summary: 'All set.' })).toEqual({ outcome: 'ok', response: 'All set.', stop: true });
  });
});
