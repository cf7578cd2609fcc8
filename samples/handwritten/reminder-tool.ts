import type OpenAI from 'openai';
import type { ChatCompletionCustomTool } from 'openai/resources/chat/completions';
import { runAgentLoop, type ToolDefinition } from '../../src';

type Reminder = { time: string; text: string };

/** HH:MM, a space, then the text: the grammar the model writes to, and the check the input gets here. */
const REMINDER = /^(?:[01]\d|2[0-3]):[0-5]\d (.+)$/;

export const reminders: Reminder[] = [];

export const reminderTool: ToolDefinition<Reminder, ChatCompletionCustomTool> = {
  schema: {
    type: 'custom',
    custom: {
      name: 'set_reminder',
      description: 'Set a reminder for today: the time as HH:MM, a space, then the text to show',
      format: { type: 'grammar', grammar: { syntax: 'regex', definition: REMINDER.source } },
    },
  },
  // The input is the text as the model wrote it (no JSON); a server that ignores the grammar is held to it here.
  parseParams: (input) => {
    const text = REMINDER.exec(input)?.[1];
    return text !== undefined
      ? { success: true, data: { time: input.slice(0, 5), text } }
      : { success: false, errorMessage: 'Write the time as HH:MM, a space, then the text' };
  },
  execute: async ({ params }) => {
    reminders.push(params);
    return { response: `Reminder set for ${params.time}` };
  },
};

export async function remind(client: OpenAI, request: string): Promise<string> {
  const result = await runAgentLoop({
    client,
    body: { model: 'gpt-5.1', messages: [{ role: 'user', content: request }] },
    tools: [reminderTool],
    maxRunAgentTimes: 4,
  });
  if (result.error) throw new Error('The run failed', { cause: result.error });
  return result.text;
}
