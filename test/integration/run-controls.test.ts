import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { Param, runAgentLoop, type RunAgentCallProps, type RunState } from '../../src';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

class TripPlan {
  @Param({ description: 'City the plan is for' }) city!: string;
  @Param({ description: 'Days to stay' }) @IsInt() @Min(1) days!: number;
}

const forecastTool = () => fakeTool('get_forecast', () => ({ response: 'sunny all week' }), { deferred: true });
const USAGE = { prompt_tokens: 100, completion_tokens: 10 };
const reply = (r: ScriptedReply): ScriptedReply => ({ usage: USAGE, ...r });
const toolNames = (server: ScriptedServer) =>
  server.requests.map((r) => (r.body.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : t.type)));

/**
 * The run controls of one run together: a typed answer, a budget, a fallback model and a deferred tool. Each has
 * its own suite; this one proves they compose: what one keeps in the state, the others keep too, and each request,
 * whichever model it goes to, carries the output format and the tools found so far.
 */
describe('typed output, budget, fallback and tool search in one run', () => {
  let primary: ScriptedServer;
  let backup: ScriptedServer;
  let weather: ReturnType<typeof forecastTool>;
  beforeEach(async () => {
    [primary, backup] = await Promise.all([startScriptedServer(), startScriptedServer()]);
    weather = forecastTool();
  });
  afterEach(() => Promise.all([primary.close(), backup.close()]));

  const props = (extra: Partial<RunAgentCallProps<TripPlan>> = {}): RunAgentCallProps<TripPlan> => ({
    client: primary.client(),
    body: { model: 'm-primary', messages: [user('Plan a trip to Rome')] },
    tools: [weather],
    output: TripPlan,
    budget: { toolCalls: 5, costUsd: 1 },
    prices: { 'm-primary': { input: 1, output: 2 }, 'm-backup': { input: 10, output: 20 } },
    fallback: [{ model: 'm-backup', client: backup.client() }],
    ...extra,
  });

  it('falls back, finds the deferred tool, answers typed, and counts the cost of the model that answered', async () => {
    primary.enqueue(reply({ toolCalls: [{ name: 'search_tools', arguments: { query: 'forecast' } }] }), {
      status: 503,
    });
    backup.enqueue(
      reply({ toolCalls: [{ name: 'get_forecast', arguments: { city: 'Rome' } }] }),
      reply({ text: JSON.stringify({ city: 'Rome', days: 3 }) }),
    );
    const result = await runAgentLoop(props());

    expect(result.stopReason).toBe('completed');
    expect(result.output).toBeInstanceOf(TripPlan);
    expect(result.output).toEqual({ city: 'Rome', days: 3 });
    // Every request, on either model, carried the output format; the found tool went out from the next request on.
    for (const request of [...primary.requests, ...backup.requests]) {
      expect(request.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'TripPlan' } });
    }
    expect(toolNames(primary)).toEqual([['search_tools'], ['search_tools', 'get_forecast']]);
    expect(toolNames(backup)).toEqual([
      ['search_tools', 'get_forecast'],
      ['search_tools', 'get_forecast'],
    ]);
    expect(weather.calls).toHaveLength(1);
    const state: RunState = JSON.parse(JSON.stringify(result.state));
    expect(state).toMatchObject({ model: 'm-backup', fallbackIndex: 0, foundTools: ['get_forecast'] });
    // One request on the primary, two on the backup: 100 in and 10 out each, at each model's own price.
    const expected = (100 * 1 + 10 * 2 + 2 * (100 * 10 + 10 * 20)) / 1_000_000;
    expect(state.spent?.costUsd).toBeCloseTo(expected, 12);
    expect(state.spent?.toolCalls).toBe(2);
    assertValidHistory(result.completeMessages);
  });

  it('a budget spent before the answer ends the run with no output, every call answered', async () => {
    primary.enqueue(
      reply({ toolCalls: [{ name: 'get_forecast', arguments: { city: 'Rome' } }] }),
      reply({
        toolCalls: [
          { name: 'get_forecast', arguments: { city: 'Rome' } },
          { name: 'get_forecast', arguments: { city: 'Milan' } },
        ],
      }),
    );
    const result = await runAgentLoop(props({ budget: { toolCalls: 2 } }));

    expect(result.stopReason).toBe('budget');
    expect(result.output).toBeUndefined();
    expect(weather.calls).toHaveLength(2);
    assertValidHistory(result.completeMessages);
    expect(result.completeMessages.filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(backup.requests).toHaveLength(0);
  });
});
