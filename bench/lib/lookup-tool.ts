import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { ToolDefinition } from '../../src/toolCall/type';

/** The tool every benchmark calls: a cheap lookup that answers `size` characters. */
export function lookupText(key: string, size: number): string {
  return `${key}:`.padEnd(size, 'x');
}

export const lookupSchema: ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'lookup',
    description: 'Look a key up',
    parameters: {
      type: 'object',
      properties: { key: { type: 'string' }, slot: { type: 'integer' } },
      required: ['key'],
      additionalProperties: false,
    },
  },
};

/** The same tool as a hand-written definition. */
export function lookupDefinition(size: number): ToolDefinition<{ key: string }> {
  return { schema: lookupSchema, execute: async ({ params }) => ({ response: lookupText(params.key, size) }) };
}
