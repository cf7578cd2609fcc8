import type OpenAI from 'openai';
import type { FunctionTool, ResponseFunctionToolCall, ResponseInputItem } from 'openai/resources/responses/responses';
import { lookupSchema } from './lookup-tool';

/** The lookup tool in the Responses API's form, built once as a hand-written loop would. */
export const lookupResponsesTool: FunctionTool = {
  type: 'function',
  name: lookupSchema.function.name,
  description: lookupSchema.function.description ?? null,
  parameters: lookupSchema.function.parameters ?? null,
  strict: false,
};

/**
 * The floor of the Responses wire: the smallest honest tool loop over bare `client.responses.create({ stream: true })`.
 * Stateless like agentcall (`store: false`, encrypted reasoning asked back), it iterates the SDK's events, replays
 * every finished output item as received (`input.push(item)`: reasoning, text and calls, in the model's order),
 * runs each function call and appends its `function_call_output`, and repeats. No validation, no hooks, no error
 * handling.
 */
export async function responsesFloorLoop({
  client,
  model,
  tools,
  run,
  maxTurns,
}: {
  client: OpenAI;
  model: string;
  tools: FunctionTool[];
  run: (name: string, args: Record<string, unknown>) => string;
  maxTurns: number;
}): Promise<ResponseInputItem[]> {
  const input: ResponseInputItem[] = [{ role: 'user', content: 'Look things up.' }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const stream = await client.responses.create({
      model,
      input,
      tools,
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
    const calls: ResponseFunctionToolCall[] = [];
    for await (const event of stream) {
      if (event.type !== 'response.output_item.done') continue;
      const item = event.item;
      input.push(item as ResponseInputItem);
      if (item.type === 'function_call') calls.push(item);
    }
    if (!calls.length) break;
    for (const call of calls)
      input.push({
        type: 'function_call_output',
        call_id: call.call_id,
        output: run(call.name, JSON.parse(call.arguments || '{}')),
      });
  }
  return input;
}
