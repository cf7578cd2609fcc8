import 'reflect-metadata';
import { generateText, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { IsInt, Max, Min } from 'class-validator';
import { Param, standardSchemaOf } from '../../../src';

class ForecastDto {
  @Param({ description: 'City name' }) city!: string;
  @Param({ description: 'Forecast days' }) @IsInt() @Min(1) @Max(7) days!: number;

  summary(): string {
    return `${this.days} days in ${this.city}`;
  }
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `forecast` with `input` first, then answers with text. */
function modelCalling(input: string) {
  const seen: unknown[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      seen.push(options);
      const toolTurn = options.prompt.every((message) => message.role !== 'tool');
      return {
        content: toolTurn
          ? [{ type: 'tool-call' as const, toolCallId: 'call-1', toolName: 'forecast', input }]
          : [{ type: 'text' as const, text: 'done' }],
        finishReason: { unified: toolTurn ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model, seen };
}

function toolResults(messages: ModelMessage[]) {
  return messages.flatMap((message) =>
    message.role === 'tool' && Array.isArray(message.content) ? message.content : [],
  );
}

describe("standardSchemaOf consumed by the AI SDK's tool()", () => {
  const received: unknown[] = [];
  const forecast = tool({
    description: 'Weather forecast',
    inputSchema: standardSchemaOf(ForecastDto),
    execute: async (input) => {
      received.push(input);
      return input.summary();
    },
  });

  beforeEach(() => (received.length = 0));

  it('sends the JSON Schema to the model and runs a valid call with the validated instance', async () => {
    const { model, seen } = modelCalling('{"city":"Oslo","days":3}');
    const result = await generateText({ model, tools: { forecast }, prompt: 'weather?', stopWhen: () => false });
    const sentTools = (seen[0] as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(sentTools[0]).toMatchObject({
      name: 'forecast',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', maximum: 7 } },
        required: ['city', 'days'],
      },
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toBeInstanceOf(ForecastDto);
    const [answer] = toolResults(result.response.messages);
    expect(answer).toMatchObject({ type: 'tool-result', output: { type: 'text', value: '3 days in Oslo' } });
  });

  it('refuses an invalid call with the path-qualified issues, without running the tool', async () => {
    const { model } = modelCalling('{"city":"Oslo","days":30}');
    const result = await generateText({ model, tools: { forecast }, prompt: 'weather?', stopWhen: () => false });
    expect(received).toHaveLength(0);
    const [answer] = toolResults(result.response.messages);
    expect(answer).toMatchObject({ type: 'tool-result', output: { type: 'error-text' } });
    expect(JSON.stringify(answer)).toContain('days must not be greater than 7');
  });
});
