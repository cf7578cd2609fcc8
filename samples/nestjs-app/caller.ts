import type { IncomingMessage } from 'node:http';

/** Who a run acts for: handed to `runAgentLoop({ caller })`, so tools and guards see it and the model never does. */
export type Caller = { user: string; role: 'admin' | 'member' };

/**
 * The caller of an HTTP request. The sample trusts two headers (`x-user`, `x-role`) to stay small; a real
 * application takes the caller from its authentication (`request.user` after a passport guard, JWT claims).
 */
export function callerOf(request: IncomingMessage): Caller {
  const user = request.headers['x-user'];
  return {
    user: typeof user === 'string' && user ? user : 'anonymous',
    role: request.headers['x-role'] === 'admin' ? 'admin' : 'member',
  };
}
