/**
 * Two Responses and Chat Completions clients nobody here wrote, with their defaults, pointed at the scripted server:
 * OpenAI Agents JS (`OpenAIResponsesModel`, `OpenAIChatCompletionsModel`) and the Vercel AI SDK (`@ai-sdk/openai`'s
 * Responses and chat models). Whatever they send back (the AI SDK sends `item_reference` items for what the server
 * issued), the recorded history reads as chat messages, each with a role.
 */
import { createRequire } from 'node:module';
import { Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, tool } from '@openai/agents';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool as aiTool } from 'ai';
import { startScriptedServer, type ScriptedServer, type ScriptedSession, type ScriptedTurn } from '../../src/testing';

type AgentsClient = ConstructorParameters<typeof OpenAIResponsesModel>[0];
type ClientConstructor = new (options: { baseURL: string; apiKey: string; maxRetries: number }) => AgentsClient;

// The openai SDK the Agents SDK depends on (its own major), not the one agentcall is built against.
const AgentsOpenAI = (
  createRequire(require.resolve('@openai/agents-openai'))('openai') as { default: ClientConstructor }
).default;

const PARAMETERS = {
  type: 'object' as const,
  properties: { city: { type: 'string' as const } },
  required: ['city'],
  additionalProperties: false as const,
};
const ANSWER = 'Sunny in Paris.';
/** Each route, streamed and not. */
const ROUTES = [
  ['responses', true],
  ['responses', false],
  ['chat', true],
  ['chat', false],
] as const;

/** Reasoning, a hosted tool's item and a call; then, after the tool's output, a cited answer. */
const script = (): ScriptedTurn[] => [
  {
    items: [{ id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'paris' } }],
    reasoning: 'The user wants the weather.',
    toolCalls: [{ id: 'call_weather', name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  {
    text: ANSWER,
    annotations: [
      { type: 'url_citation', url: 'https://example.com/paris', title: 'Paris', start_index: 0, end_index: 5 },
    ],
  },
];

/** Every message the server recorded, on every request, has a role: no item left unread as a role-less message. */
function roleless(session: ScriptedSession): unknown[] {
  return session.requests.flatMap((request) =>
    request.body.messages.filter((message) => typeof (message as { role?: unknown }).role !== 'string'),
  );
}

describe('peer clients with their defaults against the scripted server', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it.each(ROUTES)(
    'OpenAI Agents JS over %s (stream: %s) sees the answer and sends no role-less message',
    async (route, stream) => {
      const session = server.session(script());
      const client = new AgentsOpenAI({ baseURL: session.baseURL, apiKey: session.apiKey, maxRetries: 0 });
      const model =
        route === 'responses'
          ? new OpenAIResponsesModel(client, 'gpt-5.1')
          : new OpenAIChatCompletionsModel(client, 'gpt-5.1');
      const agent = new Agent({
        name: 'weather',
        instructions: 'You answer weather questions.',
        model,
        tools: [
          tool({
            name: 'get_weather',
            description: 'Weather',
            parameters: PARAMETERS,
            strict: true,
            execute: () => 'sunny',
          }),
        ],
      });
      const runner = new Runner({ tracingDisabled: true });
      let answer: unknown;
      if (stream) {
        const result = await runner.run(agent, 'Weather in Paris?', { stream: true });
        await result.completed;
        answer = result.finalOutput;
      } else {
        answer = (await runner.run(agent, 'Weather in Paris?')).finalOutput;
      }
      expect(answer).toBe(ANSWER);
      expect(session.requests.map((r) => r.wire)).toEqual([route, route]);
      expect(roleless(session)).toEqual([]);
      expect(session.requests[1].body.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_weather',
        content: 'sunny',
      });
    },
  );

  it.each(ROUTES)(
    'the Vercel AI SDK over %s (stream: %s) sees the answer and sends no role-less message',
    async (route, stream) => {
      const session = server.session(script());
      const provider = createOpenAI({ baseURL: session.baseURL, apiKey: session.apiKey });
      const model = route === 'responses' ? provider('gpt-5.1') : provider.chat('gpt-5.1');
      const options = {
        model,
        prompt: 'Weather in Paris?',
        tools: { get_weather: aiTool({ inputSchema: jsonSchema(PARAMETERS), execute: async () => 'sunny' }) },
        stopWhen: stepCountIs(3),
      };
      let text: string;
      if (stream) {
        const result = streamText(options);
        text = await result.text;
      } else {
        text = (await generateText(options)).text;
      }
      expect(text).toBe(ANSWER);
      expect(session.requests.map((r) => r.wire)).toEqual([route, route]);
      expect(roleless(session)).toEqual([]);
      const messages = session.requests[1].body.messages;
      // The call and its output are read back by their id, whether sent whole or by reference.
      expect(messages.find((m) => m.role === 'assistant' && m.tool_calls)).toMatchObject({
        tool_calls: [{ id: 'call_weather', type: 'function', function: { name: 'get_weather' } }],
      });
      expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_weather' });
    },
  );
});
