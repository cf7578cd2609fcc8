import type { ContentBlock } from '@modelcontextprotocol/client';
import { describeContent } from '../internal';

/**
 * The text a model reads for a tool result's content (see `describeContent`). Without content, the structured
 * content as JSON.
 *
 * @internal
 */
export function contentToText(content: readonly ContentBlock[] | undefined, structured?: unknown): string {
  if ((!content || content.length === 0) && structured !== undefined) return JSON.stringify(structured);
  // A remote server's blocks have MCP's shapes; an unknown type is described by its name.
  return describeContent(content ?? []);
}
