import 'reflect-metadata';
import fc from 'fast-check';
import { IsInt, Min } from 'class-validator';
import { Param, runAgentLoop } from '../../src';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

class ItemDto {
  @Param() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class OrderDto {
  @Param() id!: string;
  @Param({ type: () => [ItemDto] }) items!: ItemDto[];
}

const GOOD = JSON.stringify({ id: 'o', items: [{ sku: 'A', qty: 1 }] });

/** One model turn: tool calls, or a final answer that is good or bad in one of the ways the issue lists. */
type Step =
  { kind: 'tools'; calls: number } | { kind: 'good' | 'fenced' | 'prose' | 'extra' | 'missing' | 'nested' | 'array' };

const ANSWERS: Record<Exclude<Step['kind'], 'tools'>, { text: string; valid: boolean }> = {
  good: { text: GOOD, valid: true },
  fenced: { text: '```json\n' + GOOD + '\n```', valid: true },
  prose: { text: 'The order is o with one A.', valid: false },
  extra: { text: JSON.stringify({ id: 'o', items: [], extra: true }), valid: false },
  missing: { text: JSON.stringify({ items: [] }), valid: false },
  nested: { text: JSON.stringify({ id: 'o', items: [{ sku: 'A', qty: 0 }] }), valid: false },
  array: { text: '[1, 2]', valid: false },
};

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('tools' as const), calls: fc.integer({ min: 1, max: 3 }) }),
  fc.constantFrom(...(Object.keys(ANSWERS) as Exclude<Step['kind'], 'tools'>[])).map((kind) => ({ kind })),
);

/** What the loop must do with `steps`: the turns it takes, the feedback rounds, and how it ends. */
function expected(steps: Step[], retries: number) {
  let failures = 0;
  for (let i = 0; i < steps.length; i++) {
    const current = steps[i];
    if (current.kind === 'tools') continue;
    if (ANSWERS[current.kind].valid) return { requests: i + 1, feedbacks: failures, stopReason: 'completed' };
    failures++;
    if (failures > retries) return { requests: i + 1, feedbacks: failures - 1, stopReason: 'output_invalid' };
  }
  throw new Error('a plan ends with a good answer');
}

describe('runAgentLoop({ output }) under random answers (property)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('makes exactly the requests, feedback rounds and stop reason specified, and answers every call once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 10 }), fc.integer({ min: 0, max: 4 }), async (prefix, retries) => {
        const steps: Step[] = [...prefix, { kind: 'good' }];
        const want = expected(steps, retries);
        const replies: ScriptedReply[] = steps.slice(0, want.requests).map((s, turn) =>
          s.kind === 'tools'
            ? {
                toolCalls: Array.from({ length: s.calls }, (_, k) => ({
                  id: `t${turn}x${k}`,
                  name: 'lookup',
                  arguments: {},
                })),
              }
            : { text: ANSWERS[s.kind].text },
        );
        const before = server.requests.length;
        server.enqueue(...replies);
        const lookup = fakeTool('lookup', () => ({ response: 'ok' }));
        const result = await runAgentLoop({
          client: server.client(),
          body: { model: 'm', messages: [user('order?')] },
          tools: [lookup],
          output: OrderDto,
          outputRetries: retries,
          maxRunAgentTimes: 100,
          maxConsecutiveToolTurns: 0,
        });

        expect(result.stopReason).toBe(want.stopReason);
        expect(server.requests.length - before).toBe(want.requests);
        expect(server.pending()).toBe(0);
        expect(result.runTimes).toBe(want.requests);
        expect(result.output === undefined).toBe(want.stopReason !== 'completed');
        if (want.stopReason === 'output_invalid') expect(result.error?.name).toBe('OutputValidationError');

        const messages = result.completeMessages;
        const feedbacks = messages.filter(
          (m, i) => i > 0 && m.role === 'user' && String(m.content).startsWith('Your final answer does not match'),
        );
        expect(feedbacks).toHaveLength(want.feedbacks);
        // Each feedback follows the answer it is about, and is the last message of the next request.
        for (const feedback of feedbacks) {
          const at = messages.indexOf(feedback);
          expect(messages[at - 1].role).toBe('assistant');
          expect(messages[at + 1]?.role).toBe('assistant');
        }
        const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
        const answered = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
        expect(answered).toEqual(calls);
        expect(lookup.calls).toHaveLength(calls.length);
      }),
      { numRuns: 60 },
    );
  });
});
