import type { ChatCompletionCustomTool, ChatCompletionTool } from './type';

/** What a tool shows the model: a function tool (JSON arguments) or a custom tool (free-form text input). */
export type ToolSchema = ChatCompletionTool | ChatCompletionCustomTool;

/**
 * The name the model calls a tool by, whichever kind it is: every place that looks a tool up reads it here, so the
 * rest of the loop does not care which kind it holds.
 */
export function toolNameOf(schema: ToolSchema): string {
  // Optional reads: a definition written in plain JavaScript may lack the part its type promises.
  return schema.type === 'custom' ? schema.custom?.name : schema.function?.name;
}

/** Whether a tool takes free-form text (a custom tool) rather than JSON arguments. */
export function isCustomTool(schema: ToolSchema): schema is ChatCompletionCustomTool {
  return schema.type === 'custom';
}

/** What a tool tells the model it does, whichever kind it is. */
export function toolDescriptionOf(schema: ToolSchema): string | undefined {
  return schema.type === 'custom' ? schema.custom?.description : schema.function?.description;
}
