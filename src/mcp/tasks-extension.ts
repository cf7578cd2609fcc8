/**
 * The extension a 2026-07-28 client declares in a request's capabilities to be answered with a task, and that a
 * server with task tools announces. Its own file: the client side reads it without loading the server package.
 *
 * @internal
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
