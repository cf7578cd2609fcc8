import { Cluster, type Redis } from 'ioredis';
import type { RunStatus } from '../run-data';

/** One run of a listing: where it stands, and when it was made and last changed. */
export type RunListing = {
  runId: string;
  status: RunStatus;
  /** The model of its start body, when it names one. */
  model?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
};

/** Options of {@link listRuns}. */
export type ListRunsOptions = {
  /** The `prefix` the runs were made with (default `'agentcall'`). */
  prefix?: string;
  /** Most runs returned, the newest first (default 500). */
  limit?: number;
};

// The start body is stored as JSON: reading its model in Redis spares sending a whole history per run.
const READ_RUNS = `
local out = {}
for i, key in ipairs(KEYS) do
  local f = redis.call('HMGET', key, 'status', 'createdAt', 'updatedAt', 'body')
  local model = ''
  if f[4] then
    local ok, body = pcall(cjson.decode, f[4])
    if ok and type(body) == 'table' and type(body.model) == 'string' then model = body.model end
  end
  out[i] = {f[1] or '', f[2] or '0', f[3] or '0', model}
end
return out
`;

/** Keys of runs one listing reads at most. */
const MAX_SCANNED_KEYS = 100_000;

/**
 * The runs kept in Redis under `prefix`, newest first: for tools that show runs (the devtools page). It scans the
 * keys (`SCAN`, never `KEYS`; on a Redis Cluster, each master's), so it is meant for development and operations,
 * not for every request of an app.
 */
export async function listRuns(connection: Redis | Cluster, options: ListRunsOptions = {}): Promise<RunListing[]> {
  const prefix = options.prefix ?? 'agentcall';
  const limit = options.limit ?? 500;
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}:{*}:run`;
  const keys: string[] = [];
  const nodes = connection instanceof Cluster ? await masters(connection) : [connection];
  for (const node of nodes) {
    if (keys.length >= MAX_SCANNED_KEYS) break;
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0' && keys.length < MAX_SCANNED_KEYS);
  }
  const runs: RunListing[] = [];
  for (let i = 0; i < keys.length; i += 200) {
    const batch = keys.slice(i, i + 200);
    // Each key on its own call keeps the script valid on Redis Cluster, where a run's keys share a slot.
    const rows = await Promise.all(
      batch.map((key) => connection.eval(READ_RUNS, 1, key) as Promise<[[string, string, string, string]]>),
    );
    rows.forEach(([[status, createdAt, updatedAt, model]], j) => {
      if (!status) return;
      const key = batch[j];
      const runId = key.slice(prefix.length + 2, key.length - ':run'.length - 1);
      runs.push({
        runId,
        status: status as RunStatus,
        ...(model ? { model } : {}),
        createdAt: Number(createdAt),
        updatedAt: Number(updatedAt),
      });
    });
  }
  return runs.sort((a, b) => b.createdAt - a.createdAt).slice(0, limit);
}

/** The masters of `cluster`: a cluster's SCAN reaches one node, and the runs are spread over the masters by their ids. */
async function masters(cluster: Cluster): Promise<Redis[]> {
  // A cluster that has not read its slots yet knows no node; a command waits for that.
  if (cluster.status !== 'ready') await cluster.ping();
  return cluster.nodes('master');
}
