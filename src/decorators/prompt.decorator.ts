import { getMetadataStorage } from '../metadata/metadata-storage';
import type { PromptOptions } from '../metadata/options';
import { classOf } from '../metadata/class-chain';

/**
 * Mark a method as an MCP prompt. With `arguments: Dto`, the prompt lists the DTO's fields as its arguments and
 * the method gets the validated DTO. The method returns a string (one user message), `PromptMessage[]` or an MCP
 * `GetPromptResult`. Only records metadata; `promptsFrom` (`agentcall/mcp`) builds the definition.
 *
 * @example
 * class Prompts {
 *   @Prompt({ name: 'review', arguments: ReviewArgs })
 *   review({ language }: ReviewArgs) { return `Review this ${language} code.`; }
 * }
 */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return (prototype, methodKey) => {
    getMetadataStorage().addPrompt({ target: classOf(prototype), methodName: String(methodKey), options });
  };
}
