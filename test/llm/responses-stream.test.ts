import { APIError } from 'openai';
import { MalformedResponseError } from '../../src/errors/malformed-response.error';
import { createLLMResponse, type CreateLLMResponseProps } from '../../src/llm/request';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import {
  responseEvents,
  responseJson,
  responseStream,
  sse,
  startBodyServer,
  usage,
  type ServedBody,
  type StreamedItem,
} from '../helpers/responses-server';
import { user } from '../helpers/tools';

/** One Responses request against a server serving `body`, with every hook recorded. */
async function respond(body: ServedBody, props: Partial<CreateLLMResponseProps> = {}) {
  const server = await startBodyServer([body]);
  const seen = { text: [] as string[], reasoning: [] as string[], calls: [] as string[], params: [] as string[] };
  try {
    const res = await createLLMResponse({
      client: server.client(),
      wire: 'responses',
      body: { model: 'gpt-test', messages: [user('hi')] },
      onStreaming: ({ text }) => seen.text.push(text),
      onReasoning: ({ text }) => seen.reasoning.push(text),
      onToolCall: ({ call }) => seen.calls.push(`${call.id}:${call.function.name}`),
      onToolParam: ({ call, argsDelta }) => seen.params.push(`${call.id}:${argsDelta}`),
      ...props,
    });
    return { res, seen, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('Responses wire: reading a response', () => {
  it('streams text, reasoning and a tool call to the same hooks and one chat-shaped assistant message', async () => {
    const { res, seen, requests } = await respond(
      responseStream(
        [
          { type: 'reasoning', id: 'rs_1', summary: ['Think', 'ing'], encrypted_content: 'enc-1' },
          { type: 'message', text: ['Let me ', 'look.'] },
          { type: 'function_call', call_id: 'call_a', name: 'lookup', args: ['{"q"', ':', '"x"}'] },
        ],
        { usage: usage(100, 40, 30, 12) },
      ),
    );
    expect(requests[0].path).toBe('/v1/responses');
    expect(res.error).toBeUndefined();
    expect(res.requestId).toBe('resp_1');
    expect(seen.text).toEqual(['Let me ', 'look.']);
    expect(seen.reasoning).toEqual(['Think', 'ing']);
    expect(seen.calls).toEqual(['call_a:lookup']);
    expect(seen.params).toEqual(['call_a:{"q"', 'call_a::', 'call_a:"x"}']);
    expect(res.finish_reason).toBe('tool_calls');
    expect(res.usage).toEqual({ inputTokens: 100, outputTokens: 40, cachedTokens: 30, reasoningTokens: 12 });
    const call: ChatCompletionMessageToolCall = {
      id: 'call_a',
      type: 'function',
      function: { name: 'lookup', arguments: '{"q":"x"}' },
    };
    expect(res.toolCalls).toEqual([call]);
    expect(res.assistantMessage).toEqual({
      role: 'assistant',
      content: 'Let me look.',
      reasoning_items: [
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Thinking' }],
          encrypted_content: 'enc-1',
        },
      ],
      tool_calls: [call],
    });
  });

  it("gives finish_reason 'stop' when the completed output holds no function call", async () => {
    const { res } = await respond(responseStream([{ type: 'message', text: ['done'] }]));
    expect(res.finish_reason).toBe('stop');
    expect(res.answerText).toBe('done');
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'done' });
  });

  it('assembles arguments split over many deltas, one onToolParam per delta', async () => {
    const args = JSON.stringify({ text: 'a'.repeat(200) });
    const pieces = args.match(/.{1,3}/gs) ?? [];
    const { res, seen } = await respond(
      responseStream([{ type: 'function_call', call_id: 'call_s', name: 'echo', args: pieces }]),
    );
    expect(pieces.length).toBeGreaterThan(50);
    expect(res.toolCalls[0].function.arguments).toBe(args);
    expect(seen.params).toHaveLength(pieces.length);
  });

  it('makes up an id for a function call without call_id by the chat rule (9 letters and digits)', async () => {
    const { res, seen } = await respond(responseStream([{ type: 'function_call', name: 'f', args: ['{}'] }]));
    expect(res.toolCalls[0].id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(seen.calls).toEqual([`${res.toolCalls[0].id}:f`]);
  });

  it('gives a call whose call_id is already in the history a fresh id before any hook', async () => {
    const { res, seen } = await respond(
      responseStream([{ type: 'function_call', call_id: 'call_old', name: 'f', args: ['{}'] }]),
      { callIds: new Set(['call_old']) },
    );
    expect(res.toolCalls[0].id).not.toBe('call_old');
    expect(seen.calls).toEqual([`${res.toolCalls[0].id}:f`]);
  });

  it('keeps two function_call items the model gave one call_id as two calls, the second with a fresh id', async () => {
    const items: StreamedItem[] = [
      { type: 'function_call', call_id: 'dup', name: 'f', args: ['{"n":1}'] },
      { type: 'function_call', call_id: 'dup', name: 'f', args: ['{"n":2}'] },
    ];
    for (const [body, stream] of [
      [responseStream(items), true],
      [responseJson(items), false],
    ] as const) {
      const { res } = await respond(body, { body: { model: 'gpt-test', stream, messages: [user('hi')] } });
      expect(res.toolCalls.map((c) => c.function.arguments)).toEqual(['{"n":1}', '{"n":2}']);
      expect(res.toolCalls[0].id).toBe('dup');
      expect(res.toolCalls[1].id).toMatch(/^[a-zA-Z0-9]{9}$/);
    }
  });

  it('counts arguments on the opening item once when the first delta repeats them (vLLM)', async () => {
    const events = responseEvents([{ type: 'function_call', call_id: 'call_v', name: 'f', args: ['{"a":', '1}'] }]);
    const added = events.find((e) => e.type === 'response.output_item.added') as { item: { arguments: string } };
    added.item.arguments = '{"a":';
    const { res, seen } = await respond({ body: sse(events) });
    expect(res.toolCalls[0].function.arguments).toBe('{"a":1}');
    expect(seen.params).toEqual(['call_v:{"a":', 'call_v:1}']);
  });

  it('reads a server that sends no output_index exactly as one that does, nothing twice', async () => {
    const items: StreamedItem[] = [
      { type: 'reasoning', id: 'rs_n', summary: ['hm'], encrypted_content: 'e' },
      { type: 'message', text: ['no ', 'index'] },
      { type: 'function_call', call_id: 'call_n', name: 'f', args: ['{"a"', ':1}'] },
      { type: 'file_search_call', id: 'fs_1' },
    ];
    const withIndex = await respond(responseStream(items));
    const events = responseEvents(items).map(({ output_index: _dropped, ...event }) => event);
    const without = await respond({ body: sse(events) });
    expect(without.seen).toEqual(withIndex.seen);
    const { ms: _a, firstChunkMs: _b, ...expected } = withIndex.res;
    expect(without.res).toMatchObject(expected);
    // With another item beside it, the reasoning item is kept among the output items, in output order.
    expect(without.res.assistantMessage?.output_items?.map((item) => item.type)).toEqual([
      'reasoning',
      'file_search_call',
    ]);
    expect(without.res.droppedToolCalls).toBeUndefined();
  });

  it('keeps an output item of another type beside the answer, on the assistant message, not dropped', async () => {
    const { res } = await respond(
      responseStream([
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        { type: 'message', text: ['hi'] },
      ]),
    );
    expect(res.droppedToolCalls).toBeUndefined();
    expect(res.toolCalls).toEqual([]);
    expect(res.assistantMessage).toMatchObject({
      role: 'assistant',
      content: 'hi',
      output_items: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }],
    });
  });

  it('keeps a reasoning item without encrypted_content as it came', async () => {
    const { res } = await respond(
      responseStream([
        { type: 'reasoning', id: 'rs_plain', summary: ['why'] },
        { type: 'message', text: ['ok'] },
      ]),
    );
    expect(res.error).toBeUndefined();
    expect(res.assistantMessage?.reasoning_items).toEqual([
      { type: 'reasoning', id: 'rs_plain', summary: [{ type: 'summary_text', text: 'why' }] },
    ]);
  });

  it("returns response.failed as the client's APIError, keeping the text that arrived", async () => {
    const { res } = await respond(
      responseStream([{ type: 'message', text: ['partial'] }], {
        end: 'response.failed',
        error: { code: 'server_error', message: 'The model crashed' },
      }),
    );
    expect(res.finish_reason).toBe('error');
    expect(res.error).toBeInstanceOf(APIError);
    expect((res.error as APIError).message).toContain('The model crashed');
    expect((res.error as APIError).code).toBe('server_error');
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'partial' });
  });

  it('returns an error event as an APIError with its message and code, and no tool call', async () => {
    const events = responseEvents([{ type: 'function_call', call_id: 'c1', name: 'f', args: ['{"a":'] }], {
      end: 'none',
    });
    events.push({ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down', param: null, sequence_number: 99 });
    const { res } = await respond({ body: sse(events) });
    expect(res.finish_reason).toBe('error');
    expect(res.error).toBeInstanceOf(APIError);
    expect((res.error as APIError).message).toBe('Slow down');
    expect((res.error as APIError).code).toBe('rate_limit_exceeded');
    expect(res.assistantMessage).toBeUndefined();
  });

  it("keeps the partial output of response.incomplete with finish_reason 'length'", async () => {
    const { res } = await respond(
      responseStream([{ type: 'message', text: ['cut ', 'sho'] }], { end: 'response.incomplete', usage: usage(9, 3) }),
    );
    expect(res.error).toBeUndefined();
    expect(res.finish_reason).toBe('length');
    expect(res.answerText).toBe('cut sho');
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'cut sho' });
    expect(res.usage).toEqual({ inputTokens: 9, outputTokens: 3, cachedTokens: 0, reasoningTokens: 0 });
  });

  it('returns MalformedResponseError for a stream that ends mid-item, keeping the text and no tool call', async () => {
    const events = responseEvents(
      [
        { type: 'message', text: ['so far'] },
        { type: 'function_call', call_id: 'c1', name: 'f', args: ['{"a":'] },
      ],
      { end: 'none' },
    );
    events.splice(-2); // cut inside the call: before its arguments are done
    const { res } = await respond({ body: sse(events) });
    expect(res.error).toBeInstanceOf(MalformedResponseError);
    expect(res.finish_reason).toBe('error');
    expect(res.toolCalls.map((c) => c.function.arguments)).toEqual(['{"a":']);
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'so far' });
  });

  it('returns an error for a stream whose connection is cut mid-item', async () => {
    const events = responseEvents([{ type: 'message', text: ['so', ' far'] }], { end: 'none' });
    const { res } = await respond({ body: sse(events.slice(0, 3)), destroy: true });
    expect(res.error).toBeDefined();
    expect(res.finish_reason).toBe('error');
    expect(res.answerText).toBe('so');
  });

  it('reads a whole JSON response (stream: false) into the same result', async () => {
    const { res, seen, requests } = await respond(
      responseJson([
        { type: 'reasoning', id: 'rs_j', summary: ['s'], encrypted_content: 'e' },
        { type: 'message', text: ['whole'] },
        { type: 'function_call', call_id: 'call_j', name: 'g', args: ['{"k":1}'] },
      ]),
      { body: { model: 'gpt-test', messages: [user('hi')], stream: false } },
    );
    expect(requests[0].body.stream).toBe(false);
    expect(res.isStreamResponse).toBe(false);
    expect(res.error).toBeUndefined();
    expect(seen.text).toEqual(['whole']);
    expect(seen.calls).toEqual(['call_j:g']);
    expect(res.finish_reason).toBe('tool_calls');
    expect(res.assistantMessage?.reasoning_items).toEqual([
      { type: 'reasoning', id: 'rs_j', summary: [{ type: 'summary_text', text: 's' }], encrypted_content: 'e' },
    ]);
    expect(res.toolCalls).toEqual([{ id: 'call_j', type: 'function', function: { name: 'g', arguments: '{"k":1}' } }]);
  });

  it("reads a JSON response with status 'incomplete' as finish_reason 'length' with its partial output", async () => {
    const { res } = await respond(responseJson([{ type: 'message', text: ['half'] }], { status: 'incomplete' }), {
      body: { model: 'gpt-test', messages: [user('hi')], stream: false },
    });
    expect(res.error).toBeUndefined();
    expect(res.finish_reason).toBe('length');
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'half' });
  });

  it('returns an error, never a throw, for a 200 whose body is not JSON', async () => {
    for (const contentType of ['application/json', 'text/plain']) {
      const { res } = await respond(
        { contentType, body: '<html>gateway says hi</html>' },
        { body: { model: 'gpt-test', messages: [user('hi')], stream: false } },
      );
      expect(res.error).toBeDefined();
      expect(res.finish_reason).toBe('error');
    }
  });

  it('returns MalformedResponseError for a streamed 200 whose body is no event at all', async () => {
    const { res } = await respond({ contentType: 'text/plain', body: 'not an event stream' });
    expect(res.error).toBeInstanceOf(MalformedResponseError);
  });

  it('stops at isAborted like the chat wire', async () => {
    let events = 0;
    const { res } = await respond(responseStream([{ type: 'message', text: ['a', 'b', 'c', 'd'] }]), {
      onStreaming: () => events++,
      isAborted: () => events >= 2,
    });
    expect(res.finish_reason).toBe('close');
    expect(res.error).toBeUndefined();
    expect(res.answerText).toBe('ab');
  });

  it('ends a stream that goes silent mid-item with StreamIdleTimeoutError, keeping the text', async () => {
    const events = responseEvents([{ type: 'message', text: ['before ', 'silence'] }], { end: 'none' });
    const { res } = await respond({ body: sse(events.slice(0, 3)), hold: true }, { requestOptions: { timeout: 200 } });
    expect(res.error).toMatchObject({ name: 'StreamIdleTimeoutError' });
    expect(res.answerText).toBe('before ');
  });

  it("ends with finish_reason 'close' when the caller's signal aborts mid-stream", async () => {
    const events = responseEvents([{ type: 'message', text: ['one', 'two'] }], { end: 'none' });
    const abort = new AbortController();
    const { res } = await respond(
      { body: sse(events.slice(0, 3)), hold: true },
      { abortSignal: abort.signal, onStreaming: () => setTimeout(() => abort.abort(), 20) },
    );
    expect(res.finish_reason).toBe('close');
    expect(res.error).toBeUndefined();
    expect(res.answerText).toBe('one');
  });

  it('caps the response bytes like the chat wire', async () => {
    const { res } = await respond(responseStream([{ type: 'message', text: ['x'.repeat(5000)] }]), {
      maxResponseBytes: 1000,
    });
    expect(res.error).toMatchObject({ name: 'ResponseTooLargeError' });
  });
});
