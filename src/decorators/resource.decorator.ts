import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ResourceOptions } from '../metadata/options';
import { classOf } from '../metadata/class-chain';

/**
 * Mark a method as an MCP resource: a fixed `uri`, or a `uriTemplate` whose variables the method gets as an
 * object (with the URI read). The method returns a string (text, with `mimeType`), bytes (a blob) or an MCP
 * `ReadResourceResult`. Only records metadata; `resourcesFrom` (`agentcall/mcp`) builds the definition.
 *
 * @example
 * class Docs {
 *   @Resource({ uri: 'docs://readme', mimeType: 'text/markdown' })
 *   readme() { return '# Hello'; }
 *
 *   @Resource({ uriTemplate: 'docs://pages/{slug}', complete: { slug: ['intro', 'setup'] } })
 *   page({ slug }: { slug: string }) { return pages.get(slug) ?? ''; }
 * }
 */
export function Resource(options: ResourceOptions): MethodDecorator {
  return (prototype, methodKey) => {
    getMetadataStorage().addResource({ target: classOf(prototype), methodName: String(methodKey), options });
  };
}
