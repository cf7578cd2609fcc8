import {
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type PromptArgument,
  type PromptMessage,
} from '@modelcontextprotocol/server';
import { standardSchemaOf, type PromptOptions } from '../index';
import { memberMethodsOf } from './member-methods';

/** One prompt, as `options.prompts` takes it. */
export type McpPromptDefinition = {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
  /** The `enum` of each argument whose DTO field has one: what it completes to. */
  readonly enums: ReadonlyMap<string, readonly unknown[]>;
  readonly complete?: PromptOptions['complete'];
  /** Validate the arguments and build the prompt; invalid arguments are a `-32602` naming each problem. */
  readonly get: (args: Readonly<Record<string, string>>) => Promise<GetPromptResult>;
};

/**
 * Build prompt definitions from the `@Prompt` methods of class instances, bound to those instances, for
 * `options.prompts` of `createMcpServer`, `createMcpHttpHandler`, `serveStdio` and `mcpHandlerForRegistry`.
 * A prompt with `arguments: Dto` lists the DTO's fields and its method gets the validated DTO.
 *
 * @example
 * createMcpHttpHandler(toolsFrom(new Shop()), { name: 'shop', version: '1.0.0', prompts: promptsFrom(new Prompts()) });
 */
export function promptsFrom(...instances: object[]): McpPromptDefinition[] {
  return instances.flatMap((instance) =>
    memberMethodsOf(instance, (storage, cls) => storage.getPrompts(cls)).map(({ record, method }) => {
      const { options } = record;
      const schema = options.arguments ? standardSchemaOf(options.arguments) : undefined;
      const properties = Object.entries(schema?.jsonSchema.properties ?? {});
      const required = new Set(schema?.jsonSchema.required ?? []);
      return {
        name: options.name ?? record.methodName,
        ...(options.title !== undefined && { title: options.title }),
        ...(options.description !== undefined && { description: options.description }),
        arguments: properties.map(([name, field]) => ({
          name,
          ...(field.description !== undefined && { description: field.description }),
          required: required.has(name),
        })),
        enums: new Map(
          properties.flatMap(([name, field]) => (Array.isArray(field.enum) ? [[name, field.enum] as const] : [])),
        ),
        ...(options.complete !== undefined && { complete: options.complete }),
        get: async (args) => {
          if (!schema) return promptResult(await method());
          const checked = schema['~standard'].validate(args);
          if (checked.issues) {
            const problems = checked.issues.map((issue) => issue.message).join('; ');
            throw new ProtocolError(
              ProtocolErrorCode.InvalidParams,
              `Invalid arguments for prompt ${record.methodName}: ${problems}`,
            );
          }
          return promptResult(await method(checked.value));
        },
      } satisfies McpPromptDefinition;
    }),
  );
}

/** A method's return as a `prompts/get` result: one user message, the messages, or the result it built. */
function promptResult(value: unknown): GetPromptResult {
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) return { messages: value as PromptMessage[] };
  if (typeof value === 'object' && value !== null && Array.isArray((value as GetPromptResult).messages)) {
    return value as GetPromptResult;
  }
  throw new TypeError(`a prompt returned ${typeof value}; return a string, PromptMessage[] or a GetPromptResult`);
}
