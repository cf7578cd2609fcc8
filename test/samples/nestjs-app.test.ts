import 'reflect-metadata';
import type { INestApplication, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../samples/nestjs-app/app.module';
import type { AgentEvent } from '../../samples/nestjs-app/agent.events';
import { MODEL_NAME, OPENAI, WIRE } from '../../samples/nestjs-app/agent.tokens';
import { createApp } from '../../samples/nestjs-app/create-app';
import { RefundTools } from '../../samples/nestjs-app/refund.tools';
import { REPORT_BUDGET, ReportService } from '../../samples/nestjs-app/report.service';
import { WeatherReportDto } from '../../samples/nestjs-app/weather-report.dto';
import { Priority, TodoStore } from '../../samples/tools';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from '../../src/testing';

/** The events of an SSE response body (`data:` lines of each blank-line separated block). */
function parseSse(body: string): AgentEvent[] {
  return body
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data) as AgentEvent);
}

/** `app` listening on a free loopback port, and its URL. */
async function listen(app: INestApplication): Promise<{ app: INestApplication; url: string }> {
  await app.listen(0, '127.0.0.1');
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

/** The sample app on `server`'s scripted model (with `extra` providers), listening on a free loopback port. */
async function startSampleApp(
  server: ScriptedServer,
  extra: Provider[] = [],
): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      AppModule.register([
        { provide: OPENAI, useValue: server.client() },
        { provide: MODEL_NAME, useValue: 'nest-model' },
        ...extra,
      ]),
    ],
  }).compile();
  return listen(moduleRef.createNestApplication({ logger: false }));
}

describe('samples/nestjs-app: the SSE endpoint over real HTTP', () => {
  let server: ScriptedServer;
  let app: INestApplication;
  let url: string;

  beforeEach(async () => {
    server = await startScriptedServer();
    ({ app, url } = await startSampleApp(server));
  });
  afterEach(async () => {
    await app.close();
    await server.close();
  });

  it('streams text, tool calls with their argument fragments, tool results and a done event', async () => {
    server.enqueue(
      { text: 'Adding it.', toolCalls: [{ id: 't1', name: 'add_todo', argumentChunks: ['{"title":', '"Buy milk"}'] }] },
      { text: 'Done: todo-1.' },
    );
    const res = await fetch(`${url}/agent/stream?prompt=${encodeURIComponent('remind me to buy milk')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text());

    const kinds = events.map((e) => e.type);
    expect(kinds[0]).toBe('text');
    expect(kinds.at(-1)).toBe('done');
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([{ type: 'tool_call', id: 't1', name: 'add_todo' }]);
    expect(events.flatMap((e) => (e.type === 'tool_args' ? [e.delta] : []))).toEqual(['{"title":', '"Buy milk"}']);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ id: 't1', name: 'add_todo', outcome: 'ok' });
    expect(JSON.parse((result as { response: string }).response)).toMatchObject({
      id: 'todo-1',
      title: 'Buy milk',
      done: false,
    });
    expect(events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe('Adding it.Done: todo-1.');
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'completed' });

    // The tool ran on the DI singleton: the store Nest injected holds the item.
    expect(
      app
        .get(TodoStore)
        .list()
        .map((t) => t.title),
    ).toEqual(['Buy milk']);
    expect(server.requests[0].body.model).toBe('nest-model');
    // The 14 sample tools, refund_order, and the three agents (research, cashier, support).
    expect(server.requests[0].body.tools?.length).toBe(18);
  });

  it('reports a model error in the done event', async () => {
    server.enqueue({ status: 503, errorMessage: 'try later' });
    const events = parseSse(await (await fetch(`${url}/agent/stream?prompt=hi`)).text());
    expect(events).toEqual([
      expect.objectContaining({ type: 'done', stopReason: 'error', error: expect.stringMatching(/try later/) }),
    ]);
  });

  it('runs clear_todos for an admin and refuses it for a member, whose to-do list stays', async () => {
    app.get(TodoStore).add({ title: 'Keep me', priority: Priority.Normal, tags: [] });
    const clear = async (role: string) => {
      server.enqueue({ toolCalls: [{ id: 'c', name: 'clear_todos' }] }, { text: 'Done.' });
      const res = await fetch(`${url}/agent/stream?prompt=clear`, { headers: { 'x-user': 'sam', 'x-role': role } });
      return parseSse(await res.text()).find((e) => e.type === 'tool_result');
    };
    expect(await clear('member')).toMatchObject({ name: 'clear_todos', response: 'Tool call not allowed' });
    expect(app.get(TodoStore).list()).toHaveLength(1);
    expect(await clear('admin')).toMatchObject({ name: 'clear_todos', response: 'Deleted 1 items.' });
    expect(app.get(TodoStore).list()).toHaveLength(0);
  });

  it("answers a missing item with the exception filter's advice", async () => {
    server.enqueue({ toolCalls: [{ id: 'r', name: 'reopen_todo', arguments: { id: 'todo-9' } }] }, { text: 'Sorry.' });
    const res = await fetch(`${url}/agent/stream?prompt=reopen`, { headers: { 'x-user': 'ann', 'x-role': 'admin' } });
    expect(parseSse(await res.text()).find((e) => e.type === 'tool_result')).toMatchObject({
      response: 'There is no to-do item "todo-9". Call list_todos with status "all" to see every id.',
    });
  });

  it("gives each concurrent request's run its own request-scoped local_time tool", async () => {
    const zones = ['Asia/Tokyo', 'America/Lima', 'Europe/Oslo', 'Australia/Perth', 'UTC', 'Africa/Nairobi'];
    // Whatever order the runs' requests arrive in, each first calls local_time, then answers.
    const turn: ScriptedTurn = (request) =>
      request.body.messages.some((m) => m.role === 'tool') ? { text: 'ok' } : { toolCalls: [{ name: 'local_time' }] };
    server.enqueue(...zones.flatMap(() => [turn, turn]));
    const results = await Promise.all(
      zones.map(async (zone) => {
        const res = await fetch(`${url}/agent/stream?prompt=time`, { headers: { 'x-timezone': zone } });
        const result = parseSse(await res.text()).find((e) => e.type === 'tool_result');
        return JSON.parse((result as { response: string }).response) as { timeZone: string };
      }),
    );
    expect(results.map((r) => r.timeZone)).toEqual(zones);
  });

  it('answers 400 without a prompt', async () => {
    const res = await fetch(`${url}/agent/stream`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'Query parameter "prompt" is required' });
  });

  it('waits for approval, lists the pending calls, and resumes from the stored state with posted decisions', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'add', name: 'add_todo', arguments: { title: 'Plan trip' } }] },
      {
        toolCalls: [
          { id: 'ann', name: 'share_todo', arguments: { id: 'todo-1', email: 'ann@example.com' } },
          { id: 'bob', name: 'share_todo', arguments: { id: 'todo-1', email: 'bob@example.com' } },
        ],
      },
    );
    const events = parseSse(await (await fetch(`${url}/agent/stream?prompt=share`)).text());
    const done = events.at(-1) as Extract<AgentEvent, { type: 'done' }>;
    expect(done).toMatchObject({ type: 'done', stopReason: 'interactive' });
    const expectedPending = [
      { id: 'ann', kind: 'approval', name: 'share_todo', arguments: '{"id":"todo-1","email":"ann@example.com"}' },
      { id: 'bob', kind: 'approval', name: 'share_todo', arguments: '{"id":"todo-1","email":"bob@example.com"}' },
    ];
    expect(done.pending).toEqual(expectedPending);

    const listed = await fetch(`${url}/agent/runs/${done.runId}/pending`);
    expect(await listed.json()).toEqual({ runId: done.runId, pending: expectedPending });
    expect((await fetch(`${url}/agent/runs/nope/pending`)).status).toBe(404);

    const post = (runId: string, body: unknown) =>
      fetch(`${url}/agent/runs/${runId}/decisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post(done.runId, { decisions: 'yes' })).status).toBe(400);
    // One decision of two: the run keeps waiting, nothing is asked of the model.
    const partial = await post(done.runId, { decisions: { ann: { approve: true } } });
    expect(await partial.json()).toMatchObject({ stopReason: 'interactive', pending: expectedPending });
    expect(server.requests).toHaveLength(2);

    server.enqueue({ text: 'Shared with Ann.' });
    const resumed = await post(done.runId, {
      decisions: { ann: { approve: true }, bob: { approve: false, reason: 'not Bob' } },
    });
    expect(resumed.status).toBe(201);
    expect(await resumed.json()).toEqual({
      runId: done.runId,
      stopReason: 'completed',
      text: 'Shared with Ann.',
      pending: [],
    });
    expect(server.requests[2].body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'ann', content: 'Shared todo-1 ("Plan trip") with ann@example.com' },
      { role: 'tool', tool_call_id: 'bob', content: 'Tool call rejected by the user: not Bob' },
    ]);
    expect(await (await fetch(`${url}/agent/runs/${done.runId}/pending`)).json()).toEqual({
      runId: done.runId,
      pending: [],
    });
  });
});

describe('samples/nestjs-app: the master agent (support) and its sub-agents, an approval paused and resumed', () => {
  let server: ScriptedServer;
  let app: INestApplication;
  let url: string;

  beforeEach(async () => {
    server = await startScriptedServer();
    ({ app, url } = await startSampleApp(server));
  });
  afterEach(async () => {
    await app.close();
    await server.close();
  });

  const toolNames = (index: number) =>
    server.requests[index].body.tools?.map((t) => (t.type === 'function' ? t.function.name : t.type));
  const post = (runId: string, decisions: Record<string, unknown>) =>
    fetch(`${url}/agent/runs/${runId}/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decisions }),
    });
  const pendingRefund = {
    id: 'r1',
    kind: 'approval',
    name: 'refund_order',
    arguments: '{"orderId":"A-17"}',
    agentPath: ['s1', 'c1'],
  };

  /** The app's assistant hands the request to `support`, which asks `research`, then `cashier`, whose refund waits. */
  async function askForRefund(): Promise<AgentEvent[]> {
    server.enqueue(
      { toolCalls: [{ id: 's1', name: 'support', arguments: { task: 'Refund order A-17; weather in Oslo?' } }] },
      { toolCalls: [{ id: 'q1', name: 'research', arguments: { task: 'The weather in Oslo' } }] },
      { toolCalls: [{ id: 'w1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Oslo: 2 °C, snow.' },
      { toolCalls: [{ id: 'c1', name: 'cashier', arguments: { task: 'Refund order A-17' } }] },
      { toolCalls: [{ id: 'r1', name: 'refund_order', arguments: { orderId: 'A-17' } }] },
    );
    return parseSse(await (await fetch(`${url}/agent/stream?prompt=${encodeURIComponent('refund A-17')}`)).text());
  }

  it("runs the sub-agents on Nest's tool instances, pauses at the refund, and resumes it with the decision keyed by its path", async () => {
    const events = await askForRefund();
    const done = events.at(-1) as Extract<AgentEvent, { type: 'done' }>;
    expect(done).toMatchObject({ type: 'done', stopReason: 'interactive', pending: [pendingRefund] });
    expect(server.requests).toHaveLength(6);

    // Each agent's run: its own history and only its own tools, the weather tool on the DI-bound data source.
    expect(server.requests[1].body.messages).toEqual([
      {
        role: 'system',
        content: 'You handle customer requests: ask research to look things up and cashier to refund orders.',
      },
      { role: 'user', content: 'Refund order A-17; weather in Oslo?' },
    ]);
    expect(toolNames(1)).toEqual(['research', 'cashier']);
    expect(toolNames(2)).toEqual(['get_weather', 'get_forecast']);
    expect(toolNames(5)).toEqual(['refund_order']);
    expect(server.requests[4].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'q1',
      content: 'Oslo: 2 °C, snow.',
    });

    // The stream tells the agents apart: the app's own call has no agentPath, a sub-agent's carries its path.
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', id: 's1', name: 'support' },
      { type: 'tool_call', id: 'q1', name: 'research', agentPath: ['s1'] },
      { type: 'tool_call', id: 'w1', name: 'get_weather', agentPath: ['s1', 'q1'] },
      { type: 'tool_call', id: 'c1', name: 'cashier', agentPath: ['s1'] },
      { type: 'tool_call', id: 'r1', name: 'refund_order', agentPath: ['s1', 'c1'] },
    ]);
    expect(events.find((e) => e.type === 'tool_result' && e.id === 'w1')).toMatchObject({
      agentPath: ['s1', 'q1'],
      response: JSON.stringify({ city: 'Oslo', temperatureC: 2, conditions: 'snow' }),
    });
    const texts = events.flatMap((e) => (e.type === 'text' ? [e] : []));
    expect(texts.map((e) => e.text).join('')).toBe('Oslo: 2 °C, snow.');
    expect(texts.every((e) => e.agentPath?.join('/') === 's1/q1')).toBe(true);

    expect(await (await fetch(`${url}/agent/runs/${done.runId}/pending`)).json()).toEqual({
      runId: done.runId,
      pending: [pendingRefund],
    });
    // The cashier's bare call id decides nothing nested: the run keeps waiting and nothing ran.
    expect(await (await post(done.runId, { r1: { approve: true } })).json()).toMatchObject({
      stopReason: 'interactive',
      pending: [pendingRefund],
    });
    expect(server.requests).toHaveLength(6);
    expect(app.get(RefundTools).refunded).toEqual([]);

    server.enqueue({ text: 'Refunded A-17.' }, { text: 'A-17 is refunded; Oslo has snow.' }, { text: 'All done.' });
    const resumed = await post(done.runId, { 's1/c1/r1': { approve: true } });
    expect(resumed.status).toBe(201);
    expect(await resumed.json()).toEqual({
      runId: done.runId,
      stopReason: 'completed',
      text: 'All done.',
      pending: [],
    });
    // The refund ran once, on the RefundTools instance Nest made; each run went on where it stopped.
    expect(app.get(RefundTools).refunded).toEqual(['A-17']);
    expect(server.requests).toHaveLength(9);
    expect(server.requests[6].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'r1',
      content: 'Refunded order A-17',
    });
    expect(server.requests[7].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'Refunded A-17.',
    });
    expect(server.requests[8].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 's1',
      content: 'A-17 is refunded; Oslo has snow.',
    });
  });

  it("answers a rejected refund to the cashier's model, and the refund never runs", async () => {
    const done = (await askForRefund()).at(-1) as Extract<AgentEvent, { type: 'done' }>;
    server.enqueue({ text: 'Not refunded.' }, { text: 'A-17 was not refunded.' }, { text: 'Sorry.' });
    const resumed = await post(done.runId, { 's1/c1/r1': { approve: false, reason: 'order already shipped' } });
    expect(await resumed.json()).toMatchObject({ stopReason: 'completed', text: 'Sorry.', pending: [] });
    expect(app.get(RefundTools).refunded).toEqual([]);
    expect(server.requests[6].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'r1',
      content: 'Tool call rejected by the user: order already shipped',
    });
  });
});

describe('samples/nestjs-app: GET /agent/report, a typed answer under a budget', () => {
  let server: ScriptedServer;
  let app: INestApplication;
  let url: string;

  /** The sample app on the scripted server, with `extra` providers (a budget of its own). */
  async function start(extra: Provider[] = []): Promise<void> {
    ({ app, url } = await startSampleApp(server, extra));
  }
  const report = (city: string) => fetch(`${url}/agent/report?city=${encodeURIComponent(city)}`);
  const lookUp = { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] };
  const rome = { city: 'Rome', celsius: 19, conditions: 'sunny', advice: 'Sunglasses will do.' };

  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => {
    await app?.close();
    await server.close();
  });

  it('answers the typed JSON, and the model was asked for the WeatherReportDto schema on every request', async () => {
    await start();
    server.enqueue(lookUp, { text: JSON.stringify(rome) });
    const res = await report('Rome');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(rome);

    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: {
          name: 'WeatherReportDto',
          schema: { required: expect.arrayContaining(['city', 'celsius', 'conditions', 'advice']) },
        },
      });
      // Only the weather provider's tools: getToolsOf(WeatherTools).
      expect(request.body.tools?.map((t) => (t.type === 'function' ? t.function.name : t.type))).toEqual([
        'get_weather',
        'get_forecast',
      ]);
    }
    expect(server.requests[1].body.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: JSON.stringify({ city: 'Rome', temperatureC: 19, conditions: 'sunny' }),
    });

    // The service hands out an instance of the DTO.
    server.enqueue(lookUp, { text: JSON.stringify(rome) });
    const outcome = await app.get(ReportService).report('Rome');
    expect(outcome.ok && outcome.report).toBeInstanceOf(WeatherReportDto);
  });

  it('answers the same on the Responses wire, where the schema goes out as text.format', async () => {
    await start([{ provide: WIRE, useValue: { wire: 'responses' } }]);
    server.enqueue(lookUp, { text: JSON.stringify(rome) });
    const res = await report('Rome');
    expect(await res.json()).toEqual(rome);
    expect(server.requests.map((r) => r.wire)).toEqual(['responses', 'responses']);
    // The server records a Responses body in chat shape: its text.format comes back as response_format.
    expect(server.requests[0].body.response_format).toMatchObject({ json_schema: { name: 'WeatherReportDto' } });
  });

  it('stops a model that calls tools forever at the budget (3 tool calls) and answers 503', async () => {
    await start();
    server.enqueue(...Array.from({ length: 6 }, () => lookUp));
    const res = await report('Rome');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      statusCode: 503,
      stopReason: 'budget',
      message: 'The budget is spent',
      spent: { toolCalls: 3 },
    });
    // The 4th request's call was answered without running; no 5th request was made.
    expect(server.requests).toHaveLength(4);
  });

  it('ends at once when a budget too small for one request is given (REPORT_BUDGET)', async () => {
    await start([{ provide: REPORT_BUDGET, useValue: { totalTokens: 100 } }]);
    server.enqueue({ ...lookUp, usage: { prompt_tokens: 150, completion_tokens: 10 } });
    const res = await report('Rome');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ stopReason: 'budget', spent: { toolCalls: 0, totalTokens: 160 } });
    expect(server.requests).toHaveLength(1);
  });

  it('ends output_invalid with the problems when every answer fails validation, and answers 502', async () => {
    await start();
    const bad = { text: JSON.stringify({ city: 'Rome', celsius: 'warm', advice: '' }) };
    server.enqueue(bad, bad, bad);
    const res = await report('Rome');
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      statusCode: 502,
      stopReason: 'output_invalid',
      message: 'The model gave no valid report',
      problems: [
        expect.stringMatching(/^celsius: /),
        expect.stringMatching(/^conditions: /),
        expect.stringMatching(/^advice: /),
      ],
      spent: { toolCalls: 0, totalTokens: expect.any(Number) },
    });
    // The first answer and outputRetries' default two feedback rounds.
    expect(server.requests).toHaveLength(3);
  });

  it('answers 400 without a city', async () => {
    await start();
    const res = await fetch(`${url}/agent/report`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'Query parameter "city" is required' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('samples/nestjs-app without a key (npm run demo:nest): the embedded scripted model', () => {
  let app: INestApplication;
  let url: string;

  beforeEach(async () => {
    ({ app, url } = await listen(await createApp({ keyless: true, logger: false })));
  });
  afterEach(async () => {
    await app.close();
  });

  async function ask(prompt: string): Promise<{ answer: string; done: AgentEvent | undefined; cities: string[] }> {
    const events = parseSse(await (await fetch(`${url}/agent/stream?prompt=${encodeURIComponent(prompt)}`)).text());
    return {
      answer: events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join(''),
      done: events.at(-1),
      cities: events.flatMap((e) =>
        e.type === 'tool_result' && e.name === 'get_weather' ? [(JSON.parse(e.response) as { city: string }).city] : [],
      ),
    };
  }

  it('answers request after request, each about the city it asked for', async () => {
    for (const city of ['Rome', 'Oslo', 'Tokyo']) {
      const { answer, done, cities } = await ask(`Weather in ${city}, and add a to-do to pack an umbrella`);
      expect(done).toMatchObject({ type: 'done', stopReason: 'completed' });
      expect(cities).toEqual([city]);
      expect(answer).toMatch(new RegExp(`°C and [a-z ]+ in ${city}\\. I added "Pack an umbrella"`));
    }
  });

  it('answers GET /agent/report with its own script: the weather tool, then the report as JSON', async () => {
    const rome = await fetch(`${url}/agent/report?city=Rome`);
    expect(rome.status).toBe(200);
    expect(await rome.json()).toEqual({
      city: 'Rome',
      celsius: 19,
      conditions: 'sunny',
      advice: 'Sunglasses and a light jacket will do.',
    });
    const oslo = await fetch(`${url}/agent/report?city=Oslo`);
    expect(await oslo.json()).toMatchObject({
      city: 'Oslo',
      conditions: 'snow',
      advice: expect.stringMatching(/umbrella/),
    });
    // A city the tool does not know: the scripted model answers in prose, which never validates.
    const unknown = await fetch(`${url}/agent/report?city=Atlantis`);
    expect(unknown.status).toBe(502);
    expect(await unknown.json()).toMatchObject({
      stopReason: 'output_invalid',
      problems: [expect.stringMatching(/not JSON/)],
    });
  });

  it('keeps concurrent requests apart', async () => {
    const answers = await Promise.all(['Paris', 'New York'].map((city) => ask(`Weather in ${city}`)));
    expect(answers.map((a) => a.cities)).toEqual([['Paris'], ['New York']]);
    expect(answers.map((a) => a.done)).toEqual([
      expect.objectContaining({ stopReason: 'completed' }),
      expect.objectContaining({ stopReason: 'completed' }),
    ]);
  });
});

describe('samples/nestjs-app: the WIRE provider', () => {
  it.each(['responses', 'chat'] as const)("runs the agent on wire '%s' when WIRE says so", async (wire) => {
    const server = await startScriptedServer({ turns: [{ text: 'Hello.' }] });
    let app: INestApplication | undefined;
    try {
      let url: string;
      ({ app, url } = await startSampleApp(server, [{ provide: WIRE, useValue: { wire } }]));
      const events = parseSse(await (await fetch(`${url}/agent/stream?prompt=hi`)).text());
      expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'completed' });
      expect(server.requests.map((r) => r.wire)).toEqual([wire]);
      expect(server.requests[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'hi' });
    } finally {
      await app?.close();
      await server.close();
    }
  });
});
