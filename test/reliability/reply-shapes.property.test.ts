/**
 * Runs made of what real replies contain, generated (seeded): tool turns, tool turns beside hosted items, turns cut by
 * `length` or `content_filter` with tool calls in them, and an end that is an answer or a refusal, on both wires,
 * streamed and not. Whatever the mix: every request's history is valid (each call answered once, right after it), a
 * cut turn's calls never run and are answered naming the reason, each hosted item goes back once per request and
 * lands in `result.items`, a refusal ends the run as a refusal with no error.
 */
import fc from 'fast-check';
import { runAgentLoop } from '../../src';
import type { ToolDefinition } from '../../src';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { stretchedTimeout } from '../helpers/stretched-timeout';
import { user } from '../helpers/tools';

type Turn = 'tools' | 'hosted' | 'length' | 'content_filter';
type End = 'answer' | 'refusal';

const scenarioArb = fc.record({
  turns: fc.array(fc.constantFrom<Turn>('tools', 'hosted', 'length', 'content_filter'), { maxLength: 5 }),
  calls: fc.infiniteStream(fc.integer({ min: 1, max: 3 })),
  end: fc.constantFrom<End>('answer', 'refusal'),
  wire: fc.constantFrom<'chat' | 'responses'>('chat', 'responses'),
  stream: fc.boolean(),
});

describe('reply shapes (property-based)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ chunkSize: 5 });
  });
  afterAll(() => server.close());

  it(
    'keeps every history valid, runs no cut call, sends each kept item back once, ends on the answer or refusal',
    async () => {
      let index = 0;
      await fc.assert(
        fc.asyncProperty(scenarioArb, async ({ turns, calls, end, wire, stream }) => {
          const prefix = `r${index++}`;
          const hosted: string[] = [];
          const cut = new Set<string>();
          const replies: ScriptedReply[] = turns.map((turn, t) => {
            const toolCalls = Array.from({ length: calls.next().value }, (_, i) => ({
              id: `${prefix}_t${t}_${i}`,
              name: 'lookup',
              // A cut turn's arguments stop half-way, as a cut reply sends them.
              arguments: turn === 'length' || turn === 'content_filter' ? '{"q":"hal' : { q: `${t}.${i}` },
            }));
            if (turn === 'length' || turn === 'content_filter') {
              for (const call of toolCalls) cut.add(call.id);
              return { toolCalls, finishReason: turn };
            }
            if (turn === 'hosted') {
              const id = `ws_${prefix}_${t}`;
              hosted.push(id);
              const item = { id, type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q' } };
              return { items: [item], toolCalls };
            }
            return { toolCalls };
          });
          replies.push(end === 'answer' ? { text: 'All done.' } : { refusal: 'I cannot help with that.' });
          const session = server.session(replies);
          const ran: string[] = [];
          const lookup: ToolDefinition = {
            schema: { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
            execute: async ({ call }) => {
              ran.push(call.id);
              return { response: `found ${call.id}` };
            },
          };
          const result = await runAgentLoop({
            client: session.client(),
            wire,
            body: { model: 'm', messages: [user('go')], stream },
            tools: [lookup],
            maxRunAgentTimes: 10,
          });

          expect(session.requests).toHaveLength(replies.length);
          assertValidRequests(session.requests);
          // No cut call ran; every other call ran once.
          expect(ran.filter((id) => cut.has(id))).toEqual([]);
          expect(new Set(ran).size).toBe(ran.length);
          const last = session.requests.at(-1)!.body.messages;
          for (const message of last) {
            if (message.role !== 'tool' || !cut.has(message.tool_call_id)) continue;
            expect(message.content).toMatch(/output token limit|content filter/);
          }
          // Hosted items exist on the Responses wire only: each goes back once in every later request, in place.
          if (wire === 'responses') {
            expect((result.items ?? []).map((item) => item.id)).toEqual(hosted);
            for (const request of session.requests) {
              const input = (request.rawBody as { input: { id?: string }[] }).input;
              const ids = input.map((item) => item.id).filter((id) => id?.startsWith('ws_'));
              expect(new Set(ids).size).toBe(ids.length);
            }
            const lastInput = (session.requests.at(-1)!.rawBody as { input: { id?: string }[] }).input;
            expect(lastInput.map((item) => item.id).filter((id) => id?.startsWith('ws_'))).toEqual(hosted);
          }
          if (end === 'refusal') {
            expect(result.stopReason).toBe('refusal');
            expect(result.refusal).toBe('I cannot help with that.');
            expect(result.error).toBeUndefined();
          } else {
            expect(result.stopReason).toBe('completed');
            expect(result.text).toBe('All done.');
          }
        }),
        { numRuns: 40 },
      );
    },
    stretchedTimeout(120_000),
  );
});
