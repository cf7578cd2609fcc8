import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { AfterToolCallEvent } from '../../src/agentCall/type';
import { ToolDefinitionError } from '../../src/errors/tool-definition.error';
import { createMemoryJournal } from '../../src/toolCall/journal';
import type { RepairArgumentsInput, ToolDefinition, ToolParseResult } from '../../src/toolCall/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

/** Let every call that can start now start, and every running call observe the others: no clock involved. */
const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Counts the calls of each tool in flight, and the most seen at once, per tool and in all. */
function inFlightCounter() {
  const now = new Map<string, number>();
  const most = new Map<string, number>();
  let total = 0;
  let mostTotal = 0;
  return {
    most,
    mostTotal: () => mostTotal,
    async hold(name: string) {
      now.set(name, (now.get(name) ?? 0) + 1);
      most.set(name, Math.max(most.get(name) ?? 0, now.get(name)!));
      mostTotal = Math.max(mostTotal, ++total);
      await settle();
      now.set(name, now.get(name)! - 1);
      total--;
    },
  };
}

const toolIds = (messages: { role: string; tool_call_id?: string }[]) =>
  messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);

describe('tool safety in runAgentLoop', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  describe('concurrency: a cap on one tool', () => {
    it('runs at most n of 40 parallel calls at once, answers each once and in call order', async () => {
      const counter = inFlightCounter();
      const limited = fakeTool(
        'fetch_page',
        async ({ params }) => {
          await counter.hold('fetch_page');
          return { response: `page ${String(params.i)}` };
        },
        { concurrency: 3 },
      );
      const calls = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, name: 'fetch_page', arguments: { i } }));
      server.enqueue({ toolCalls: calls }, { text: 'done' });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('fetch all')] },
        tools: [limited],
        toolConcurrency: 40,
        maxToolCallsPerTurn: 40,
      });
      expect(result.stopReason).toBe('completed');
      expect(limited.calls).toHaveLength(40);
      expect(counter.most.get('fetch_page')).toBe(3);
      expect(toolIds(result.completeMessages)).toEqual(calls.map((c) => c.id));
      const contents = result.completeMessages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(contents).toEqual(calls.map((_, i) => `page ${i}`));
      assertValidHistory(result.completeMessages);
    });

    it("caps only that tool: other tools' calls fill the run's toolConcurrency beside it", async () => {
      const counter = inFlightCounter();
      const slow = fakeTool('slow', () => counter.hold('slow').then(() => ({ response: 'slow' })), { concurrency: 2 });
      const quick = fakeTool('quick', () => counter.hold('quick').then(() => ({ response: 'quick' })));
      const calls = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, name: i % 2 ? 'quick' : 'slow' }));
      server.enqueue({ toolCalls: calls }, { text: 'done' });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [slow, quick],
        toolConcurrency: 6,
      });
      expect(counter.most.get('slow')).toBe(2);
      expect(counter.mostTotal()).toBe(6);
      expect(slow.calls).toHaveLength(10);
      expect(quick.calls).toHaveLength(10);
      expect(toolIds(result.completeMessages)).toEqual(calls.map((c) => c.id));
    });

    it('a hand-written tool with concurrency 0 ends the run before any request', async () => {
      const broken = fakeTool('broken', () => ({ response: '' }), { concurrency: 0 });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [broken],
      });
      expect(result.stopReason).toBe('error');
      expect(ToolDefinitionError.isInstance(result.error)).toBe(true);
      expect(result.error?.message).toMatch(/tool "broken": concurrency must be a whole number of at least 1/);
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('retry: only for idempotent tools', () => {
    /** A tool that fails its first `failures` runs, then answers. */
    const flaky = (failures: number, extra: Partial<ToolDefinition> = {}) => {
      let runs = 0;
      return fakeTool(
        'lookup',
        () => {
          runs++;
          if (runs <= failures) throw new Error(`upstream 503 (run ${runs})`);
          return { response: `found on run ${runs}` };
        },
        { idempotent: true, retry: { attempts: 3 }, ...extra },
      );
    };

    it('runs a failed call again with the same idempotency key, and reports every attempt', async () => {
      const tool = flaky(2);
      const events: AfterToolCallEvent[] = [];
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { text: 'done' });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('look up')] },
        tools: [tool],
        runId: 'run-9',
        onAfterToolCall: (e) => events.push(e),
      });
      expect(result.stopReason).toBe('completed');
      expect(tool.calls.map((ctx) => ctx.idempotencyKey)).toEqual(['run-9:c1', 'run-9:c1', 'run-9:c1']);
      expect(server.requests[1].body.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'c1',
        content: 'found on run 3',
      });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ outcome: 'ok', attempts: 3 });
      expect((events[0].attemptErrors as Error[]).map((e) => e.message)).toEqual([
        'upstream 503 (run 1)',
        'upstream 503 (run 2)',
      ]);
    });

    it('counts the first run in attempts: attempts 2 runs a failing tool twice and answers with the last error', async () => {
      const tool = flaky(5, { retry: { attempts: 2 } });
      const events: AfterToolCallEvent[] = [];
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { text: 'done' });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('look up')] },
        tools: [tool],
        onAfterToolCall: (e) => events.push(e),
      });
      expect(tool.calls).toHaveLength(2);
      expect(events[0]).toMatchObject({ outcome: 'error', attempts: 2 });
      expect(events[0].attemptErrors).toHaveLength(1);
      expect(result.completeMessages.at(-2)?.content).toBe('Tool error: upstream 503 (run 2)');
    });

    it('retryOn chooses the failures worth another run', async () => {
      const tool = flaky(1, { retry: { attempts: 3, retryOn: (error) => !String(error).includes('503') } });
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { text: 'done' });
      await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('x')] }, tools: [tool] });
      expect(tool.calls).toHaveLength(1);
    });

    it('a hand-written tool with retry and without idempotent: true ends the run before any request', async () => {
      const pay = fakeTool('pay', () => ({ response: 'paid' }), { retry: { attempts: 3 } });
      const run = runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('pay')] },
        tools: [pay],
      });
      await expect(run).resolves.toBeDefined();
      const result = await run;
      expect(result.stopReason).toBe('error');
      expect(result.error).toBeInstanceOf(ToolDefinitionError);
      expect(result.error?.message).toMatch(/tool "pay": retry is set but idempotent is not true/);
      expect((result.error as ToolDefinitionError).problems[0]).toMatchObject({ toolName: 'pay' });
      expect(server.requests).toHaveLength(0);
      expect(pay.calls).toHaveLength(0);
    });

    it('the journal keeps a call that finished after a retry from running again on a rerun', async () => {
      const journal = createMemoryJournal();
      const tool = flaky(1);
      const turn = { toolCalls: [{ id: 'p1', name: 'lookup' }] };
      server.enqueue(turn, { text: 'ok' }, turn, { text: 'ok' });
      const props = { body: { model: 'm', messages: [user('x')] }, tools: [tool], runId: 'r', journal };
      await runAgentLoop({ client: server.client(), ...props });
      await runAgentLoop({ client: server.client(), ...props });
      expect(tool.calls).toHaveLength(2);
      // What the journal keeps is serialisable: the attempts' raw errors stay in the process.
      expect(await journal.get('r:p1')).toEqual({ response: 'found on run 2', outcome: 'ok', attempts: 2 });
      expect(server.requests[3].body.messages.at(-1)).toMatchObject({ content: 'found on run 2' });
    });

    it("records the attempts and each failed attempt's error on the tool's span", async () => {
      const exporter = new InMemorySpanExporter();
      const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const tool = flaky(2);
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { text: 'done' });
      await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('x')] },
        tools: [tool],
        tracer: provider.getTracer('t'),
      });
      const span = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool lookup')!;
      expect(span.attributes['agentcall.tool.attempts']).toBe(3);
      expect(span.events.map((e) => e.attributes?.['exception.message'])).toEqual([
        'upstream 503 (run 1)',
        'upstream 503 (run 2)',
      ]);
      await provider.shutdown();
    });
  });

  describe('repairArguments: validated again before anything runs', () => {
    type Weather = { city: string };
    /** A hand-written parser: `city` must be a non-empty string. */
    const parseParams = (raw: string): ToolParseResult<Weather> => {
      let value: unknown;
      try {
        value = JSON.parse(raw || '{}');
      } catch {
        return { success: false, errorMessage: 'Invalid arguments for tool "weather":\narguments: not JSON' };
      }
      const city = (value as Partial<Weather>)?.city;
      return typeof city === 'string' && city
        ? { success: true, data: { city } }
        : { success: false, errorMessage: 'Invalid arguments for tool "weather":\ncity: must be a non-empty string' };
    };
    const weather = (extra: Partial<ToolDefinition<Weather>> = {}) =>
      fakeTool<Weather>('weather', ({ params }) => ({ response: `${params.city}: 21°C` }), { parseParams, ...extra });

    it('runs the call with corrected arguments once they validate, and tells the model they were repaired', async () => {
      const seen: RepairArgumentsInput[] = [];
      const tool = weather({
        repairArguments: (input) => {
          seen.push(input);
          return JSON.stringify({ city: String((JSON.parse(input.raw) as { city: unknown }).city) });
        },
      });
      const events: AfterToolCallEvent[] = [];
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city": 75001}' }] }, { text: 'ok' });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('weather?')] },
        tools: [tool],
        onAfterToolCall: (e) => events.push(e),
      });
      expect(result.stopReason).toBe('completed');
      expect(seen).toEqual([
        {
          raw: '{"city": 75001}',
          issues: ['city: must be a non-empty string'],
          tool: { name: 'weather', description: 'weather tool', parameters: tool.schema.function.parameters },
        },
      ]);
      expect(tool.calls.map((ctx) => ctx.params)).toEqual([{ city: '75001' }]);
      const message = server.requests[1].body.messages.at(-1) as { content: string };
      expect(message.content).toBe(
        'Note: the arguments of this call were invalid and were repaired before it ran, to {"city":"75001"}\n75001: 21°C',
      );
      expect(events[0]).toMatchObject({ outcome: 'ok', repairedArguments: '{"city":"75001"}' });
    });

    it('never runs what does not validate: a repair that returns invalid text, nothing, or throws', async () => {
      const plain = weather();
      server.enqueue({ toolCalls: [{ id: 'c0', name: 'weather', arguments: { city: '' } }] }, { text: 'ok' });
      const usual = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('x')] },
        tools: [plain],
      });
      const usualText = usual.completeMessages.at(-2)?.content;
      expect(usualText).toBe('Invalid arguments for tool "weather":\ncity: must be a non-empty string');

      for (const repair of [
        () => '{"city": ""}',
        () => undefined,
        () => Promise.reject(new Error('no')),
        () => 'nope',
      ]) {
        let asked = 0;
        const tool = weather({
          repairArguments: () => {
            asked++;
            return repair();
          },
        });
        server.enqueue({ toolCalls: [{ id: 'c0', name: 'weather', arguments: { city: '' } }] }, { text: 'ok' });
        const result = await runAgentLoop({
          client: server.client(),
          body: { model: 'm', messages: [user('x')] },
          tools: [tool],
        });
        expect(asked).toBe(1);
        expect(tool.calls).toHaveLength(0);
        expect(result.completeMessages.at(-2)?.content).toBe(usualText);
      }
    });

    it("the run's repairArguments serves tools without their own, and is not asked for valid calls", async () => {
      const asked: string[] = [];
      const own = fakeTool<Weather>('own', ({ params }) => ({ response: params.city }), {
        parseParams,
        repairArguments: () => '{"city":"from the tool"}',
      });
      const plain = weather();
      server.enqueue(
        {
          toolCalls: [
            { id: 'c1', name: 'weather', arguments: { city: 'Oslo' } },
            { id: 'c2', name: 'weather', arguments: { town: 'Rome' } },
            { id: 'c3', name: 'own', arguments: {} },
            { id: 'c4', name: 'missing', arguments: {} },
          ],
        },
        { text: 'ok' },
      );
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('x')] },
        tools: [plain, own],
        repairArguments: ({ raw, tool }) => {
          asked.push(`${tool.name} ${raw}`);
          return JSON.stringify({ city: (JSON.parse(raw) as { town: string }).town });
        },
      });
      expect(asked).toEqual(['weather {"town":"Rome"}']);
      expect(plain.calls.map((ctx) => ctx.params.city)).toEqual(['Oslo', 'Rome']);
      expect(own.calls.map((ctx) => ctx.params.city)).toEqual(['from the tool']);
      expect(toolIds(result.completeMessages)).toEqual(['c1', 'c2', 'c3', 'c4']);
      assertValidHistory(result.completeMessages);
    });

    it('repairs the calls of a tool that asks for approval before the predicate sees them', async () => {
      const checked: unknown[] = [];
      const tool = weather({
        needsApproval: ({ params }) => {
          checked.push(params);
          return false;
        },
      });
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 7 } }] }, { text: 'ok' });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('x')] },
        tools: [tool],
        repairArguments: () => '{"city":"Lyon"}',
      });
      expect(checked).toEqual([{ city: 'Lyon' }]);
      expect(tool.calls.map((ctx) => ctx.params)).toEqual([{ city: 'Lyon' }]);
      expect(result.completeMessages.at(-2)?.content).toMatch(/^Note: the arguments of this call were invalid/);
    });
  });
});
