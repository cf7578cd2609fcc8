import type { RemoteTool, RemoteToolsClient } from './mcp-tools-client';

/** How much of a server's listing `mcpTools` reads. */
export type ListingBounds = {
  readonly maxPages: number;
  readonly maxTools: number;
  readonly keep: (tool: RemoteTool) => boolean;
};

/** What was read, and what of the listing was left out. */
export type ListingRead = {
  readonly tools: RemoteTool[];
  readonly pagesRead: number;
  /** The server offered another page that was not read. */
  readonly unreadPages: boolean;
  /** Tools read past `maxTools` and dropped. */
  readonly droppedTools: number;
};

/**
 * Read a server's `tools/list` page by page until it has no `nextCursor`, `maxPages` pages were read, or
 * `maxTools` tools were kept: a server that always answers with another cursor, or with endless tools, is
 * read only that far.
 *
 * @internal
 */
export async function listRemoteTools(client: RemoteToolsClient, bounds: ListingBounds): Promise<ListingRead> {
  const tools: RemoteTool[] = [];
  let pagesRead = 0;
  let droppedTools = 0;
  let cursor: string | undefined;
  do {
    if (pagesRead >= bounds.maxPages) return { tools, pagesRead, unreadPages: true, droppedTools };
    const page = await client.listTools(cursor);
    pagesRead++;
    for (const tool of page.tools) {
      if (!bounds.keep(tool)) continue;
      if (tools.length < bounds.maxTools) tools.push(tool);
      else droppedTools++;
    }
    cursor = page.nextCursor;
    if (tools.length >= bounds.maxTools && cursor !== undefined) {
      return { tools, pagesRead, unreadPages: true, droppedTools };
    }
  } while (cursor !== undefined);
  return { tools, pagesRead, unreadPages: false, droppedTools };
}
