/**
 * The OpenAI Agents JS SDK's own Responses model (`OpenAIResponsesModel`, with the openai SDK it ships with) and
 * agentcall's loop on `wire: 'responses'`, driven by the same script on the scripted server: both must agree on the
 * wire. The Agents SDK is a Responses client nobody here wrote, so this checks the scripted server as much as the
 * loop: what each sent, read back chat-shaped, must be the same conversation.
 */
import { createRequire } from 'node:module';
import { Agent, OpenAIResponsesModel, Runner, tool } from '@openai/agents';
import { runAgentLoop } from '../../src';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptedTurn } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

type AgentsClient = ConstructorParameters<typeof OpenAIResponsesModel>[0];
type ClientConstructor = new (options: { baseURL: string; apiKey: string; maxRetries: number }) => AgentsClient;

// The openai SDK the Agents SDK depends on (its own major), not the one agentcall is built against.
const AgentsOpenAI = (
  createRequire(require.resolve('@openai/agents-openai'))('openai') as { default: ClientConstructor }
).default;

const INSTRUCTIONS = 'You answer weather questions.';
const PROMPT = 'Weather in Paris?';
const ANSWER = 'It is 18°C and sunny in Paris.';
const PARAMETERS = {
  type: 'object' as const,
  properties: { city: { type: 'string' as const, description: 'City name' } },
  required: ['city'],
  additionalProperties: false as const,
};

/** One script for both clients: reasoning and a call, then the answer after the tool's output. */
const script = (): ScriptedTurn[] => [
  {
    reasoning: 'The user wants the weather.',
    toolCalls: [{ id: 'call_weather', name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  (request: RecordedRequest) => {
    const output = request.body.messages.find((m) => m.role === 'tool');
    return {
      text: output?.content === 'Paris: 18°C, sunny' ? ANSWER : `unexpected tool output ${JSON.stringify(output)}`,
    };
  },
];

/** A conversation as the scripted server read it, without what only one client adds (ids of items it kept). */
function conversation(messages: ChatCompletionMessageParam[]) {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const { reasoning_items: reasoning, ...rest } = message as typeof message & { reasoning_items?: { id?: string }[] };
    return { ...rest, reasoningIds: reasoning?.map((item) => item.id) ?? [] };
  });
}

describe('OpenAI Agents JS and agentcall on the same scripted Responses server', () => {
  // Each client its own server, so the ids the server makes (its items are numbered) are the same for both.
  const servers: ScriptedServer[] = [];
  const session = async () => {
    const server = await startScriptedServer();
    servers.push(server);
    return server.session(script());
  };
  afterEach(() => Promise.all(servers.splice(0).map((server) => server.close())));

  async function viaAgentsJs(stream: boolean) {
    const scripted = await session();
    const client = new AgentsOpenAI({ baseURL: scripted.baseURL, apiKey: scripted.apiKey, maxRetries: 0 });
    const calls: unknown[] = [];
    const agent = new Agent({
      name: 'weather',
      instructions: INSTRUCTIONS,
      model: new OpenAIResponsesModel(client, 'gpt-5.1'),
      tools: [
        tool({
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: PARAMETERS,
          strict: true,
          execute: (input) => {
            calls.push(input);
            return 'Paris: 18°C, sunny';
          },
        }),
      ],
    });
    const runner = new Runner({ tracingDisabled: true });
    let answer: unknown;
    if (stream) {
      const result = await runner.run(agent, PROMPT, { stream: true });
      await result.completed;
      answer = result.finalOutput;
    } else {
      answer = (await runner.run(agent, PROMPT)).finalOutput;
    }
    return { answer, calls, requests: scripted.requests };
  }

  async function viaAgentcall(stream: boolean) {
    const scripted = await session();
    const weather = fakeTool('get_weather', () => ({ response: 'Paris: 18°C, sunny' }), {
      schema: {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: PARAMETERS,
          strict: true,
        },
      },
    });
    const result = await runAgentLoop({
      client: scripted.client(),
      wire: 'responses',
      body: { model: 'gpt-5.1', stream, messages: [{ role: 'system', content: INSTRUCTIONS }, user(PROMPT)] },
      tools: [weather],
    });
    expect(result.error).toBeUndefined();
    return { answer: result.text, calls: weather.calls.map((c) => c.params), requests: scripted.requests };
  }

  it.each([true, false])(
    'send the same tools, calls, outputs and reasoning, and get the same answer (stream: %s)',
    async (stream) => {
      const agents = await viaAgentsJs(stream);
      const ours = await viaAgentcall(stream);

      expect(agents.answer).toBe(ANSWER);
      expect(ours.answer).toBe(ANSWER);
      expect(ours.calls).toEqual(agents.calls);
      expect(agents.calls).toEqual([{ city: 'Paris' }]);

      expect(agents.requests.map((r) => r.wire)).toEqual(['responses', 'responses']);
      expect(ours.requests.map((r) => r.wire)).toEqual(['responses', 'responses']);
      for (const [a, b] of agents.requests.map((r, i) => [r, ours.requests[i]] as const)) {
        expect(b.body.stream === true).toBe(a.body.stream === true);
        // The tools as the Responses API reads them: flat, with strict explicit.
        expect(b.rawBody.tools).toEqual(a.rawBody.tools);
        expect(b.body.tools).toEqual(a.body.tools);
      }
      // The second request: the same history, the call and its output paired by the same call id, the reasoning item
      // sent back before the call.
      const [theirs, mine] = [
        conversation(agents.requests[1].body.messages),
        conversation(ours.requests[1].body.messages),
      ];
      expect(mine).toEqual(theirs);
      expect(mine).toEqual([
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: PROMPT },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_weather', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
          reasoningIds: ['rs_scripted_1_0'],
        },
        { role: 'tool', tool_call_id: 'call_weather', content: 'Paris: 18°C, sunny' },
      ]);
    },
  );
});
