import 'reflect-metadata';
import { IsObject } from 'class-validator';
import {
  OutputSchemaError,
  OutputValidationError,
  Param,
  runAgentLoop,
  standardSchemaOf,
  type OutputStandardSchema,
} from '../../src';
import { runCoreLoop } from '../../src/agentCall/run-core-loop';
import { runObservedLoop } from '../../src/internal';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { wireUnderTest } from '../helpers/wire-under-test';
import { LineItem, Address } from '../fixtures/order-dtos';

class OrderDto {
  @Param() id!: string;
  @Param({ type: () => [LineItem] }) items!: LineItem[];
  @Param({ optional: true }) note?: string;
}

class ShipmentDto {
  @Param() order!: OrderDto;
  @Param({ type: () => [Address] }) stops!: Address[];
}

const GOOD = { id: 'o-1', items: [{ sku: 'A1', qty: 2 }] };
const good = JSON.stringify(GOOD);

/** A hand-made Standard Schema v1 with its JSON Schema: `{ answer: number }`. */
const answerSchema: OutputStandardSchema<{ answer: number }> = {
  '~standard': {
    version: 1,
    vendor: 'hand-made',
    validate: (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { issues: [{ message: 'must be an object' }] };
      }
      const answer = (value as { answer?: unknown }).answer;
      if (typeof answer !== 'number') return { issues: [{ message: 'must be a number', path: [{ key: 'answer' }] }] };
      return { value: { answer } };
    },
    jsonSchema: {
      input: () => ({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        title: 'The Answer',
        properties: { answer: { type: 'number' } },
        required: ['answer'],
        additionalProperties: false,
      }),
    },
  },
};

/** The `response_format` a request sent, as the chat wire writes it (the server reads `text.format` back into it). */
function sentFormat(request: RecordedRequest): unknown {
  return request.body.response_format;
}

function feedbackOf(request: RecordedRequest): string | undefined {
  const last = request.body.messages.at(-1);
  return last?.role === 'user' && typeof last.content === 'string' ? last.content : undefined;
}

describe('runAgentLoop({ output })', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const run = <T>(props: Partial<Parameters<typeof runAgentLoop<T>>[0]> = {}) =>
    runAgentLoop<T>({
      client: server.client(),
      body: { model: 'm', messages: [user('order?')] },
      tools: [],
      ...props,
    });

  it('sends the schema with every request, tool turns included, and returns the answer as a class instance', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found o-1' }));
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] }, { text: good });
    const result = await run({ output: OrderDto, tools: [lookup] });

    expect(result.stopReason).toBe('completed');
    expect(result.output).toBeInstanceOf(OrderDto);
    expect(result.output?.items[0]).toBeInstanceOf(LineItem);
    expect(result.output).toEqual(GOOD);
    expect(result.text).toBe(good);
    expect(server.requests).toHaveLength(2);
    const schema = standardSchemaOf(OrderDto).jsonSchema;
    for (const request of server.requests) {
      expect(sentFormat(request)).toEqual({
        type: 'json_schema',
        json_schema: { name: 'OrderDto', schema, strict: false },
      });
      expect(request.body.tools).toHaveLength(1);
    }
    if (wireUnderTest() === 'responses') {
      const raw = server.requests[0].rawBody as { text?: unknown; response_format?: unknown };
      expect(raw.text).toEqual({ format: { type: 'json_schema', name: 'OrderDto', schema, strict: false } });
      expect(raw.response_format).toBeUndefined();
    }
  });

  it('answers prose with one line saying it was not JSON, then takes the next answer', async () => {
    server.enqueue({ text: 'Your order o-1 has two A1.' }, { text: good });
    const result = await run({ output: OrderDto });

    expect(result.stopReason).toBe('completed');
    expect(result.output).toEqual(GOOD);
    const feedback = feedbackOf(server.requests[1]);
    expect(feedback?.split('\n').slice(1)).toEqual([
      '(root): the answer is not JSON; answer with only the JSON value, without prose',
    ]);
  });

  it('answers JSON with an extra field with its path', async () => {
    server.enqueue({ text: JSON.stringify({ ...GOOD, coupon: 'X' }) }, { text: good });
    const result = await run({ output: OrderDto });

    expect(result.output).toEqual(GOOD);
    expect(feedbackOf(server.requests[1])?.split('\n').slice(1)).toEqual(['coupon: property coupon should not exist']);
  });

  it('answers JSON with a missing field with its path', async () => {
    server.enqueue({ text: JSON.stringify({ items: GOOD.items }) }, { text: good });
    const result = await run({ output: OrderDto });

    expect(result.output).toEqual(GOOD);
    expect(feedbackOf(server.requests[1])?.split('\n').slice(1)).toEqual(['id: id is required']);
  });

  it('accepts JSON as the only content of a code fence, and refuses prose around one or around bare JSON', async () => {
    server.enqueue({ text: '```json\n' + good + '\n```' });
    expect((await run({ output: OrderDto })).output).toEqual(GOOD);

    server.enqueue(
      { text: 'Here it is:\n```json\n' + good + '\n```' },
      { text: `Sure! ${good}` },
      { text: '```\n' + good + '```' },
    );
    const result = await run({ output: OrderDto });
    expect(result.output).toEqual(GOOD);
    expect(feedbackOf(server.requests[2])).toContain('the answer is not JSON');
    expect(feedbackOf(server.requests[3])).toContain('the answer is not JSON');
    expect(server.requests).toHaveLength(4);
  });

  it('ends with output_invalid once the feedback rounds are used up, every message kept', async () => {
    server.enqueue({ text: 'no' }, { text: '{"id": 1}' }, { text: '{"id": "o-1", "items": [{"qty": 0}]}' });
    const result = await run({ output: OrderDto });

    expect(result.stopReason).toBe('output_invalid');
    expect(result.output).toBeUndefined();
    expect(server.requests).toHaveLength(3);
    expect(OutputValidationError.isInstance(result.error)).toBe(true);
    const error = result.error as OutputValidationError;
    expect(error.lines).toEqual(['items[0].sku: sku is required', 'items[0].qty: qty must not be less than 1']);
    expect(error.attempts).toBe(3);
    expect(error.message).toContain('\nitems[0].sku: sku is required\nitems[0].qty: qty must not be less than 1');
    expect(result.text).toBe('{"id": "o-1", "items": [{"qty": 0}]}');
    expect(result.completeMessages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(result.assistantMessages).toHaveLength(5);
    expect(result.state.messages).toEqual(result.completeMessages);
  });

  it('takes outputRetries: 0 as no feedback at all, and counts retries against maxRunAgentTimes', async () => {
    server.enqueue({ text: 'no' });
    const none = await run({ output: OrderDto, outputRetries: 0 });
    expect(none.stopReason).toBe('output_invalid');
    expect(server.requests).toHaveLength(1);

    server.enqueue({ text: 'no' }, { text: 'still no' });
    const capped = await run({ output: OrderDto, outputRetries: 5, maxRunAgentTimes: 2 });
    expect(capped.stopReason).toBe('max_turns');
    expect(capped.output).toBeUndefined();
    expect(server.requests).toHaveLength(3);
  });

  it('sends one feedback message, role user and last, and the good answer after it completes the run', async () => {
    server.enqueue({ text: '{}' }, { text: good });
    const result = await run({ output: OrderDto });

    expect(result.stopReason).toBe('completed');
    const second = server.requests[1].body.messages;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: '{}' });
    expect(second.at(-1)).toEqual({
      role: 'user',
      content:
        'Your final answer does not match the required output schema. Fix these problems and answer again with only ' +
        'the JSON value:\nid: id is required\nitems: items is required',
    });
    expect(result.runTimes).toBe(2);
  });

  it('takes a hand-made Standard Schema in place of a class', async () => {
    server.enqueue({ text: '{"answer": "42"}' }, { text: '{"answer": 42}' });
    const result = await run({ output: answerSchema });

    expect(result.output).toEqual({ answer: 42 });
    expect(sentFormat(server.requests[0])).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'The_Answer',
        schema: {
          type: 'object',
          title: 'The Answer',
          properties: { answer: { type: 'number' } },
          required: ['answer'],
          additionalProperties: false,
        },
        strict: false,
      },
    });
    expect(feedbackOf(server.requests[1])?.split('\n').slice(1)).toEqual(['answer: must be a number']);
  });

  it('validates a DTO with nested objects and arrays, with the path of each problem', async () => {
    const bad = {
      order: {
        id: 'o',
        items: [
          { sku: 'A', qty: 1 },
          { sku: 'B', qty: 0 },
        ],
      },
      stops: [{}],
    };
    const fixed = { order: { id: 'o', items: [{ sku: 'A', qty: 1 }] }, stops: [{ street: 'Main' }] };
    server.enqueue({ text: JSON.stringify(bad) }, { text: JSON.stringify(fixed) });
    const result = await run({ output: ShipmentDto });

    expect(feedbackOf(server.requests[1])?.split('\n').slice(1)).toEqual([
      'order.items[1].qty: qty must not be less than 1',
      'stops[0].street: street is required',
    ]);
    expect(result.output).toBeInstanceOf(ShipmentDto);
    expect(result.output?.order).toBeInstanceOf(OrderDto);
    expect(result.output?.stops[0]).toBeInstanceOf(Address);
    expect(result.output).toEqual(fixed);
  });

  it('ends before any request when a Standard Schema gives no JSON Schema', async () => {
    const bare: OutputStandardSchema<unknown> = {
      '~standard': { version: 1, vendor: 'bare', validate: (value) => ({ value }) },
    };
    const saved: unknown[] = [];
    const result = await run({ output: bare, onCheckpoint: (state) => void saved.push(state) });

    expect(result.stopReason).toBe('error');
    expect(OutputSchemaError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toContain('gives no JSON Schema');
    // Refused like an unreadable state: nothing ran, so nothing is saved.
    expect(saved).toEqual([]);
    expect(result.runTimes).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses output beside body.response_format, and unusable options, before any request', async () => {
    const both = await run({
      output: OrderDto,
      body: { model: 'm', messages: [user('x')], response_format: { type: 'json_object' } },
    });
    expect(OutputSchemaError.isInstance(both.error)).toBe(true);
    expect(both.error?.message).toContain('body.response_format');

    for (const props of [
      { outputRetries: -1 },
      { outputRetries: 1.5 },
      { outputMode: 'xml' },
      { outputProfile: 'x' },
    ]) {
      const result = await run({ output: OrderDto, ...(props as object) });
      expect(result.stopReason).toBe('error');
      expect(OutputSchemaError.isInstance(result.error)).toBe(true);
    }
    class Untyped {
      @Param({ optional: true }) @IsObject() free?: object;
    }
    const strict = await run({ output: Untyped, outputProfile: 'openai-strict' });
    expect(strict.error?.message).toContain('free-form object');
    class Unreflected {
      @Param() free!: string | number;
    }
    const unreflected = await run({ output: Unreflected });
    expect(OutputSchemaError.isInstance(unreflected.error)).toBe(true);
    expect(unreflected.error?.message).toContain('Unreflected.free: its type reflects as Object');
    expect(server.requests).toHaveLength(0);
  });

  it('sends the strict form with openai-strict and accepts the nulls it asks for', async () => {
    server.enqueue({ text: JSON.stringify({ ...GOOD, note: null }) });
    const result = await run({ output: OrderDto, outputProfile: 'openai-strict' });

    expect(result.output).toEqual(GOOD);
    const format = sentFormat(server.requests[0]) as { json_schema: { strict: boolean; schema: object } };
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.schema).toMatchObject({
      required: ['id', 'items', 'note'],
      additionalProperties: false,
      properties: { note: { type: ['string', 'null'] } },
    });

    server.enqueue({ text: '{"answer": 1, "note": null}' });
    const withNote = {
      ...answerSchema,
      '~standard': {
        ...answerSchema['~standard'],
        validate: (value: unknown) =>
          Object.keys(value as object).includes('note')
            ? { issues: [{ message: 'note must be a string when present' }] }
            : answerSchema['~standard'].validate(value),
        jsonSchema: {
          input: () => ({
            type: 'object',
            properties: { answer: { type: 'number' }, note: { type: 'string' } },
            required: ['answer'],
          }),
        },
      },
    } as OutputStandardSchema<{ answer: number }>;
    const foreign = await run({ output: withNote, outputProfile: 'openai-strict' });
    expect(foreign.output).toEqual({ answer: 1 });
  });

  it('states keywords a profile cannot carry in words', async () => {
    server.enqueue({ text: good });
    await run({ output: OrderDto, outputProfile: 'anthropic' });
    const format = sentFormat(server.requests[0]) as {
      json_schema: { schema: { properties: Record<string, object> } };
    };
    const items = format.json_schema.schema.properties.items as { items: { properties: { qty: object } } };
    expect(items.items.properties.qty).toEqual({ description: 'at least 1', type: 'integer' });
  });

  it('puts the schema in the instructions with outputMode instructions, and checks the answer the same way', async () => {
    server.enqueue({ text: 'prose' }, { text: good });
    const result = await run({
      output: OrderDto,
      outputMode: 'instructions',
      body: { model: 'm', messages: [{ role: 'system', content: 'You sell things.' }, user('order?')] },
    });

    expect(result.output).toEqual(GOOD);
    for (const request of server.requests) {
      expect(request.body.response_format).toBeUndefined();
      const system = request.body.messages[0] as { role: string; content: string };
      expect(system.role).toBe('system');
      expect(system.content.startsWith('You sell things.\n\nWhen you give your final answer')).toBe(true);
      expect(system.content).toContain(JSON.stringify(standardSchemaOf(OrderDto).jsonSchema));
      expect(request.body.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    }
    expect(feedbackOf(server.requests[1])).toContain('the answer is not JSON');
    // The instructions are the request's, not the run's: the history keeps the caller's system message.
    expect(result.completeMessages[0]).toEqual({ role: 'system', content: 'You sell things.' });

    server.enqueue({ text: good });
    await run({ output: OrderDto, outputMode: 'instructions' });
    expect(server.requests[2].body.messages[0]).toMatchObject({ role: 'system' });
    expect(server.requests[2].body.messages[1]).toEqual(user('order?'));
  });

  it('makes the name match ^[a-zA-Z0-9_-]{1,64}$', async () => {
    server.enqueue({ text: good }, { text: good });
    await run({ output: OrderDto, outputName: 'order summary (v2)' });
    await run({ output: OrderDto, outputName: 'x'.repeat(100) });
    const names = server.requests.map((r) => (sentFormat(r) as { json_schema: { name: string } }).json_schema.name);
    expect(names).toEqual(['order_summary_v2_', 'x'.repeat(64)]);
  });

  it('answers every tool call of the run once, feedback rounds between tool turns included', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'ok' }));
    server.enqueue(
      { toolCalls: [{ id: 'a', name: 'lookup', arguments: {} }] },
      { text: 'prose' },
      {
        toolCalls: [
          { id: 'b', name: 'lookup', arguments: {} },
          { id: 'c', name: 'lookup', arguments: {} },
        ],
      },
      { text: good },
    );
    const result = await run({ output: OrderDto, tools: [lookup] });

    expect(result.stopReason).toBe('completed');
    expect(lookup.calls).toHaveLength(3);
    const toolIds = result.completeMessages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    expect(toolIds).toEqual(['a', 'b', 'c']);
  });

  it('reads a class in the observed loop the queue runs, and refuses a raw one in the core loop', async () => {
    server.enqueue({ text: good });
    const observed = await runObservedLoop(
      { client: server.client(), body: { model: 'm', messages: [user('x')] }, tools: [], output: OrderDto },
      [],
    );
    expect(observed.output).toBeInstanceOf(OrderDto);

    const core = await runCoreLoop(
      { client: server.client(), body: { model: 'm', messages: [user('x')] }, tools: [], output: OrderDto },
      [],
    );
    expect(core.stopReason).toBe('error');
    expect(OutputSchemaError.isInstance(core.error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('checkpoints after a feedback round, and a resumed run goes on to a typed answer', async () => {
    const saved: unknown[] = [];
    server.enqueue({ text: 'prose' }, { text: 'more prose' });
    const first = await run({ output: OrderDto, outputRetries: 1, onCheckpoint: (state) => void saved.push(state) });
    expect(first.stopReason).toBe('output_invalid');
    expect(saved).toHaveLength(2);

    server.enqueue({ text: good });
    const resumed = await run({ output: OrderDto, resumeFrom: JSON.parse(JSON.stringify(first.state)) });
    expect(resumed.stopReason).toBe('completed');
    expect(resumed.output).toEqual(GOOD);
    expect(resumed.state.turn).toBe(3);
    expect(first.state.outputFailures).toBe(2);
    expect('outputFailures' in resumed.state).toBe(true);

    // The failures count across resumes, as the queue resumes a run for every job: one more bad answer ends it.
    server.enqueue({ text: 'prose again' });
    const again = await run({ output: OrderDto, resumeFrom: first.state });
    expect(again.stopReason).toBe('output_invalid');
    expect((again.error as OutputValidationError).attempts).toBe(3);
    expect(again.state.outputFailures).toBe(3);
  });

  it('refuses a state whose outputFailures is not a count, before any request', async () => {
    server.enqueue({ text: 'prose' });
    const first = await run({ output: OrderDto, outputRetries: 0 });
    for (const outputFailures of [-1, 1.5, '1', Number.MAX_SAFE_INTEGER + 2]) {
      const result = await run({ output: OrderDto, resumeFrom: { ...first.state, outputFailures } as never });
      expect(result.stopReason).toBe('error');
      expect(result.error?.name).toBe('InvalidRunStateError');
      expect(result.error?.message).toContain('outputFailures');
    }
    expect(server.requests).toHaveLength(1);
  });

  it('costs nothing when absent: no response_format and no output', async () => {
    server.enqueue({ text: good });
    const result = await run();
    expect(result.output).toBeUndefined();
    expect('output' in result).toBe(false);
    expect(server.requests[0].body.response_format).toBeUndefined();
  });
});
