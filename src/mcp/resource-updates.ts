/** Who hears of a changed resource: a server that has a client subscribed to it. */
type UpdateListener = (uri: string) => void;

/**
 * Tells subscribed MCP clients that a resource changed. Give one to a server (`options.resourceUpdates`) and
 * call `updated(uri)` when the resource at `uri` changes: every client that subscribed to that URI
 * (`resources/subscribe`, on any session or stdio connection of servers given this object) gets
 * `notifications/resources/updated` and reads it again. Clients that did not subscribe hear nothing.
 *
 * @example
 * const updates = new ResourceUpdates();
 * createMcpHttpHandler(tools, { name: 'docs', version: '1.0.0', resources, resourceUpdates: updates });
 * store.on('saved', (page) => updates.updated(`docs://pages/${page.slug}`));
 */
export class ResourceUpdates {
  private readonly listeners = new Set<UpdateListener>();

  /** Tell every client subscribed to `uri` that it changed. */
  updated(uri: string): void {
    for (const listener of this.listeners) listener(uri);
  }

  /**
   * Hear of every update until the returned function is called.
   *
   * @internal
   */
  listen(listener: UpdateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * How many servers listen (one per connection with a subscription): what a test checks to see none is kept
   * after its connection closed.
   *
   * @internal
   */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
