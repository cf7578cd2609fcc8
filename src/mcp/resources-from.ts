import { UriTemplate, type ReadResourceResult } from '@modelcontextprotocol/server';
import type { PromptOptions } from '../index';
import { memberMethodsOf } from './member-methods';

/** One resource, or a family of them under a URI template, as `options.resources` takes it. */
export type McpResourceDefinition = {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** A fixed URI, or an RFC 6570 template (its variables go to `read`). */
  readonly uri: string;
  readonly template?: UriTemplate;
  readonly complete?: PromptOptions['complete'];
  /** Read the resource at `uri`, a template's variables given. */
  readonly read: (uri: string, variables: Readonly<Record<string, string | string[]>>) => Promise<ReadResourceResult>;
};

/**
 * Build resource definitions from the `@Resource` methods of class instances, bound to those instances, for
 * `options.resources` of `createMcpServer`, `createMcpHttpHandler`, `serveStdio` and `mcpHandlerForRegistry`.
 * A fixed resource's method gets the URI; a template's method gets its variables as an object, then the URI.
 *
 * @example
 * createMcpHttpHandler(toolsFrom(new Shop()), { name: 'shop', version: '1.0.0', resources: resourcesFrom(new Docs()) });
 */
export function resourcesFrom(...instances: object[]): McpResourceDefinition[] {
  return instances.flatMap((instance) =>
    memberMethodsOf(instance, (storage, cls) => storage.getResources(cls)).map(({ record, method }) => {
      const { options } = record;
      const template = options.uriTemplate !== undefined ? new UriTemplate(options.uriTemplate) : undefined;
      const uri = options.uriTemplate ?? options.uri;
      return {
        name: options.name ?? record.methodName,
        ...(options.title !== undefined && { title: options.title }),
        ...(options.description !== undefined && { description: options.description }),
        ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
        uri,
        ...(template && { template }),
        ...(options.complete !== undefined && { complete: options.complete }),
        read: async (read, variables) =>
          resourceResult(read, options.mimeType, await (template ? method(variables, read) : method(read))),
      } satisfies McpResourceDefinition;
    }),
  );
}

/** A method's return as a `resources/read` result: text, a blob, or the result it built itself. */
function resourceResult(uri: string, mimeType: string | undefined, value: unknown): ReadResourceResult {
  if (typeof value === 'string') return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] };
  if (value instanceof Uint8Array) {
    return {
      contents: [
        {
          uri,
          mimeType: mimeType ?? 'application/octet-stream',
          blob: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'),
        },
      ],
    };
  }
  if (typeof value === 'object' && value !== null && Array.isArray((value as ReadResourceResult).contents)) {
    return value as ReadResourceResult;
  }
  throw new TypeError(`resource ${uri} returned ${typeof value}; return a string, bytes or a ReadResourceResult`);
}
