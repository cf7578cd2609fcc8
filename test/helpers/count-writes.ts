/**
 * Count the writes a Redis client's socket hands the kernel from now on: one `_writev` for what a cork held, one
 * `_write` otherwise.
 */
export function countWrites(client: { stream: unknown }): () => number {
  const socket = client.stream as { _write: unknown; _writev: unknown };
  let writes = 0;
  for (const method of ['_write', '_writev'] as const) {
    const original = socket[method] as (...args: unknown[]) => unknown;
    socket[method] = function (this: unknown, ...args: unknown[]) {
      writes++;
      return original.apply(this, args);
    };
  }
  return () => writes;
}
