import 'reflect-metadata';
import { Param, runTool, Tool, toolsFrom, type ToolDefinition } from '../../src';
import { startScriptedServer } from '../../src/testing';
import { planTrip } from '../../samples/writing-tools/agent';
import {
  buildStrictTools,
  buildTools,
  callTool,
  describeDefinitionProblems,
} from '../../samples/writing-tools/build-tools';

function schemaOf(tools: ToolDefinition[], name: string) {
  const tool = tools.find((t) => t.schema.function.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.schema.function;
}

describe('samples/writing-tools (the examples of docs/writing-tools.md)', () => {
  const tools = buildTools();

  it('builds every tool of the three sample classes', () => {
    expect(tools.map((t) => t.schema.function.name)).toEqual([
      'forecast',
      'compare_cities',
      'book',
      'checkIn',
      'findCustomer',
      'openTickets',
      'escalate',
      'refund',
      'search',
    ]);
  });

  it('inline parameters: schema, defaults for omitted optionals, validation lines', async () => {
    expect(schemaOf(tools, 'forecast').parameters).toEqual({
      type: 'object',
      properties: {
        city: { description: 'City name', type: 'string', examples: ['Oslo'] },
        days: { description: 'How many days, 1 to 7', type: 'integer', minimum: 1, maximum: 7 },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city'],
      additionalProperties: false,
    });
    await expect(callTool(tools, 'forecast', '{"city": "Oslo"}')).resolves.toBe('[14]');
    await expect(callTool(tools, 'forecast', '{"city": "Oslo", "days": 2, "unit": "fahrenheit"}')).resolves.toBe(
      '[57,59]',
    );
    await expect(callTool(tools, 'forecast', '{"city": "Oslo", "days": 10, "unit": "kelvin"}')).resolves.toBe(
      [
        'Invalid arguments for tool "forecast":',
        'days: days must not be greater than 7',
        'unit: unit must be one of the following values: celsius, fahrenheit',
      ].join('\n'),
    );
    await expect(callTool(tools, 'compare_cities', '{"cities": ["Oslo", "Rome"]}')).resolves.toBe('Oslo');
    await expect(callTool(tools, 'compare_cities', '{"cities": ["Oslo"]}')).resolves.toBe(
      'Invalid arguments for tool "compare_cities":\ncities: cities must contain at least 2 elements',
    );
  });

  it('DTO parameters: strict schema, nulls for optional fields, nested validation', async () => {
    const book = schemaOf(tools, 'book');
    expect(book.strict).toBe(true);
    expect(book.parameters).toMatchObject({
      required: ['from', 'to', 'date', 'cabin', 'passengers'],
      additionalProperties: false,
    });
    const passenger = { name: 'Ada', age: 36, email: null };
    await expect(
      callTool(
        tools,
        'book',
        JSON.stringify({ from: 'OSL', to: 'CPH', date: '2027-05-01', cabin: null, passengers: [passenger] }),
      ),
    ).resolves.toBe('Booked 1 seat(s) OSL→CPH on 2027-05-01 in economy');
    await expect(
      callTool(
        tools,
        'book',
        JSON.stringify({
          from: 'Oslo',
          to: 'CPH',
          date: 'May 1st',
          cabin: null,
          passengers: [{ name: 'Ada', age: -1 }],
        }),
      ),
    ).resolves.toBe(
      [
        'Invalid arguments for tool "book":',
        'from: from must be shorter than or equal to 3 characters',
        'date: date must match /^\\d{4}-\\d{2}-\\d{2}$/ regular expression',
        'passengers[0].age: age must not be less than 0',
      ].join('\n'),
    );
    await expect(
      callTool(tools, 'checkIn', '{"bookingRef": "X1", "passenger": {"name": "Ada", "age": 36}}'),
    ).resolves.toBe('Ada checked in on X1');
    await expect(callTool(tools, 'checkIn', '{"bookingRef": "X1", "passenger": {"name": "Ada"}}')).resolves.toBe(
      'Invalid arguments for tool "checkIn":\npassenger.age: age is required',
    );
  });

  it('results: @Exclude, stop, interactive, usages', async () => {
    const run = (name: string, args: string) =>
      runTool({ call: { id: 'c1', type: 'function', function: { name, arguments: args } }, messages: [], tools });
    await expect(run('findCustomer', '{"id": "cus_1"}')).resolves.toEqual({
      outcome: 'ok',
      response: '{"id":"cus_1","name":"Ada"}',
    });
    await expect(run('openTickets', '')).resolves.toEqual({ outcome: 'ok', response: '3' });
    await expect(run('escalate', '{"reason": "angry"}')).resolves.toEqual({
      outcome: 'ok',
      response: 'Escalated: angry',
      stop: true,
    });
    await expect(run('refund', '{"amount": 20}')).resolves.toEqual({
      outcome: 'ok',
      response: 'Waiting for the user',
      interactive: { type: 'confirm', question: 'Refund 20 EUR?' },
    });
    await expect(run('search', '{"query": "vat"}')).resolves.toEqual({
      outcome: 'ok',
      response: 'No article matches "vat"',
      usages: [{ moduleName: 'kb_search', totalPoints: 1 }],
    });
  });

  it('list form defaults: strict and timeout for tools that set neither', () => {
    const strictTools = buildStrictTools();
    expect(schemaOf(strictTools, 'forecast').strict).toBe(true);
    expect(strictTools.every((t) => t.timeoutMs === 10_000)).toBe(true);
  });

  it('definition problems are listed at build time', () => {
    class Broken {
      @Tool({ name: 'find user' })
      find(@Param('id') id: string | number, verbose: boolean) {
        return [id, verbose];
      }
    }
    expect(describeDefinitionProblems(() => buildTools())).toEqual([]);
    expect(describeDefinitionProblems(() => toolsFrom(new Broken()))).toEqual([
      'Broken.find: tool name "find user" is invalid; it must match /^[a-zA-Z0-9_-]{1,64}$/',
      'Broken.find: has no @Param or @Ctx decorator; every parameter of a @Tool method needs one',
      'Broken.find: parameter "id": its type reflects as Object (a union, an interface or a type literal); give type: () => X or use a DTO class',
    ]);
  });

  it('runs in the agent loop', async () => {
    const server = await startScriptedServer({
      turns: [
        { toolCalls: [{ name: 'forecast', arguments: { city: 'Oslo', days: 0 } }] },
        { toolCalls: [{ name: 'forecast', arguments: { city: 'Oslo', days: 1 } }] },
        { text: '14°C tomorrow in Oslo.' },
      ],
    });
    try {
      await expect(planTrip(server.client(), 'How warm is Oslo tomorrow?')).resolves.toBe('14°C tomorrow in Oslo.');
      const toolMessages = server.requests[2].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(toolMessages).toEqual([
        'Invalid arguments for tool "forecast":\ndays: days must not be less than 1',
        '[14]',
      ]);
    } finally {
      await server.close();
    }
  });
});
