/**
 * A `RunStore` on PostgreSQL, written against `runStoreConformance`: runs, their journals and their events in three
 * tables of one schema, each change one transaction that starts by locking the run's row (the compare-and-set), and
 * `LISTEN`/`NOTIFY` for cancels, settled runs and new events. BullMQ's jobs stay in Redis. A sample to copy and
 * adapt, not part of the package: agentcall does not depend on `pg`.
 *
 * @example
 * const store = new PostgresRunStore({ connectionString: process.env.DATABASE_URL });
 * await store.migrate();
 * const runs = new AgentRuns({ connection: { host: '127.0.0.1', port: 6379 }, store, secret });
 */
import { Client, Pool, type PoolClient, type PoolConfig } from 'pg';
import type {
  CancelSubscription,
  CheckpointInput,
  Claimed,
  DecideOutcome,
  NewRun,
  RunEvent,
  RunEventData,
  RunEventReader,
  RunListing,
  RunStatus,
  RunStore,
  StoredError,
  StoredRun,
} from '../../src/bullmq';
import type { Decision } from '../../src';

/** Options of {@link PostgresRunStore}. */
export type PostgresRunStoreOptions = {
  /** The schema the tables live in, and the prefix of the channels it listens on (default `agentcall`). */
  schema?: string;
  /** Seconds a finished run is kept (default a week). */
  finishedTtlSeconds?: number;
  /** Seconds a run waiting for a person is kept (default a week). */
  waitingTtlSeconds?: number;
  /** Events kept per run, the newest (default 10,000): each append drops as many of the oldest as it goes over. */
  maxEvents?: number;
};

/**
 * A run's row as stored: JSON columns are text, so what was given comes back as it was (jsonb would reorder it). The
 * answer's `text` is stored as JSON too: a PostgreSQL text holds no U+0000, and JSON escapes it.
 */
type RunRow = {
  run_id: string;
  status: RunStatus;
  seq: number;
  job_seq: number;
  state: string;
  body: string;
  meta: string;
  decisions: string | null;
  stop_reason: string | null;
  text: string | null;
  output: string | null;
  error: string | null;
};

const WEEK = 7 * 24 * 60 * 60;

export class PostgresRunStore implements RunStore {
  private readonly pool: Pool;
  private readonly schema: string;
  private readonly finishedTtl: number;
  private readonly waitingTtl: number;
  private readonly maxEvents: number;
  private readonly channels: { cancel: string; settled: string; events: string };
  /** One connection that listens for every reader and subscriber of this store, opened on first use. */
  private listener?: Promise<Client>;
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly listened = new Map<string, Promise<void>>();
  private closed = false;
  /** The waits of the reads in progress, woken when the store closes. */
  private readonly waking = new Set<() => void>();

  constructor(
    private readonly config: PoolConfig,
    options: PostgresRunStoreOptions = {},
  ) {
    this.schema = options.schema ?? 'agentcall';
    if (!/^[a-z_][a-z0-9_]{0,40}$/.test(this.schema)) throw new Error(`Not a plain schema name: ${this.schema}`);
    this.pool = new Pool(config);
    // An idle connection that drops (a restarted server) is reported here; without a listener Node would throw it.
    this.pool.on('error', () => undefined);
    this.finishedTtl = options.finishedTtlSeconds ?? WEEK;
    this.waitingTtl = options.waitingTtlSeconds ?? WEEK;
    this.maxEvents = Math.max(1, options.maxEvents ?? 10_000);
    this.channels = {
      cancel: `${this.schema}_cancel`,
      settled: `${this.schema}_settled`,
      events: `${this.schema}_events`,
    };
  }

  /** Create the schema and its tables unless they exist. */
  async migrate(): Promise<void> {
    const s = this.schema;
    await this.pool.query(`
      CREATE SCHEMA IF NOT EXISTS ${s};
      CREATE TABLE IF NOT EXISTS ${s}.runs (
        run_id text PRIMARY KEY, status text NOT NULL, seq integer NOT NULL, job_seq integer NOT NULL,
        state text NOT NULL, body text NOT NULL, meta text NOT NULL, decisions text, stop_reason text, text text,
        output text, error text, created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(), expires_at timestamptz);
      -- Events a run has kept, so trimming it to its cap costs what it drops, not what it keeps.
      ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS event_count integer NOT NULL DEFAULT 0;
      CREATE TABLE IF NOT EXISTS ${s}.run_journal (
        run_id text NOT NULL, field text NOT NULL, value text NOT NULL, PRIMARY KEY (run_id, field));
      CREATE TABLE IF NOT EXISTS ${s}.run_events (
        id bigserial PRIMARY KEY, run_id text NOT NULL, type text NOT NULL, data text NOT NULL);
      CREATE INDEX IF NOT EXISTS run_events_by_run ON ${s}.run_events (run_id, id);
      -- A run's events appended in the given order (WITH ORDINALITY keeps it in the ids the sequence hands out),
      -- its oldest dropped past p_max, and its readers told at commit. Provisional events are named in the journal
      -- (\`event:<id>\`) until a journal write or checkpoint makes them final: a retried claim deletes them.
      DROP FUNCTION IF EXISTS ${s}.append_events(text, text[], text[], text);
      DROP FUNCTION IF EXISTS ${s}.append_events(text, text[], text[], text, integer);
      CREATE OR REPLACE FUNCTION ${s}.append_events(p_run text, p_types text[], p_data text[], p_channel text,
        p_max integer, p_provisional boolean) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        kept integer;
      BEGIN
        IF cardinality(p_types) = 0 THEN RETURN; END IF;
        WITH added AS (
          INSERT INTO ${s}.run_events (run_id, type, data)
            SELECT p_run, t, d FROM unnest(p_types, p_data) WITH ORDINALITY AS e(t, d, n) ORDER BY n RETURNING id)
        INSERT INTO ${s}.run_journal (run_id, field, value)
          SELECT p_run, 'event:' || id, '' FROM added WHERE p_provisional;
        UPDATE ${s}.runs SET event_count = event_count + cardinality(p_types) WHERE run_id = p_run
          RETURNING event_count INTO kept;
        IF kept > p_max THEN
          DELETE FROM ${s}.run_events WHERE id IN (
            SELECT id FROM ${s}.run_events WHERE run_id = p_run ORDER BY id LIMIT kept - p_max);
          UPDATE ${s}.runs SET event_count = p_max WHERE run_id = p_run;
        END IF;
        PERFORM pg_notify(p_channel, p_run);
      END $$;
      -- A turn's save in one statement (one round trip): the compare-and-set on the locked row, the new state and
      -- outcome, the journal cleared, the events appended in order, and the listeners told at commit.
      DROP FUNCTION IF EXISTS ${s}.checkpoint(text, integer, text, text, text, text, text, text, boolean,
        double precision, text[], text[], text, text);
      DROP FUNCTION IF EXISTS ${s}.checkpoint(text, integer, text, text, text, text, text, text, boolean,
        double precision, text[], text[], text, text, integer);
      CREATE OR REPLACE FUNCTION ${s}.checkpoint(p_run text, p_seq integer, p_state text, p_status text,
        p_stop_reason text, p_text text, p_error text, p_output text, p_hand_off boolean, p_ttl double precision,
        p_types text[], p_data text[], p_events_channel text, p_settled_channel text, p_max integer,
        p_keep_journal boolean)
        RETURNS integer
      LANGUAGE plpgsql AS $$
      DECLARE
        r record;
      BEGIN
        SELECT seq, status INTO r FROM ${s}.runs
          WHERE run_id = p_run AND (expires_at IS NULL OR expires_at > now()) FOR UPDATE;
        IF NOT FOUND OR r.seq <> p_seq OR r.status <> 'running' THEN RETURN NULL; END IF;
        UPDATE ${s}.runs SET seq = p_seq + 1, job_seq = CASE WHEN p_hand_off THEN p_seq + 1 ELSE job_seq END,
          state = p_state, status = p_status, stop_reason = p_stop_reason, text = p_text, error = p_error,
          output = p_output, decisions = NULL, updated_at = now(), expires_at = now() + make_interval(secs => p_ttl)
          WHERE run_id = p_run;
        -- An agent's turn keeps the journal (the results of its root turn's other calls live only there), not the
        -- provisional event markers.
        DELETE FROM ${s}.run_journal WHERE run_id = p_run AND (NOT p_keep_journal OR field LIKE 'event:%');
        PERFORM ${s}.append_events(p_run, p_types, p_data, p_events_channel, p_max, false);
        IF p_status <> 'running' THEN PERFORM pg_notify(p_settled_channel, p_run); END IF;
        RETURN p_seq + 1;
      END $$;`);
  }

  /** Delete the runs past their expiry, with their journals and events; call it from a timer of the app's. */
  async deleteExpired(): Promise<number> {
    const s = this.schema;
    return this.transaction(async (db) => {
      const { rows } = await db.query<{ run_id: string }>(
        `DELETE FROM ${s}.runs WHERE expires_at < now() RETURNING run_id`,
      );
      const ids = rows.map((row) => row.run_id);
      await db.query(`DELETE FROM ${s}.run_journal WHERE run_id = ANY($1)`, [ids]);
      await db.query(`DELETE FROM ${s}.run_events WHERE run_id = ANY($1)`, [ids]);
      return ids.length;
    });
  }

  async create(run: NewRun): Promise<{ created: boolean; status: RunStatus; seq: number }> {
    return this.transaction(async (db) => {
      const { rows } = await db.query<RunRow & { live: boolean }>(
        `SELECT *, ${LIVE} AS live FROM ${this.schema}.runs r WHERE run_id = $1 FOR UPDATE`,
        [run.runId],
      );
      const existing = rows[0];
      if (existing?.live) return { created: false, status: existing.status, seq: existing.seq };
      // An expired run's rows go: its id starts anew.
      if (existing) for (const table of ['runs', 'run_journal', 'run_events']) await this.drop(db, table, run.runId);
      const inserted = await db.query(
        `INSERT INTO ${this.schema}.runs (run_id, status, seq, job_seq, state, body, meta)
         VALUES ($1, 'queued', 0, 0, $2, $3, $4) ON CONFLICT (run_id) DO NOTHING`,
        [run.runId, JSON.stringify(run.state), JSON.stringify(run.body), JSON.stringify(run.meta ?? null)],
      );
      if (inserted.rowCount === 0) {
        // Another start of the same id got there first, and has committed (READ COMMITTED sees it now).
        const other = await this.lock(db, run.runId);
        return { created: false, status: other?.status ?? 'queued', seq: other?.seq ?? 0 };
      }
      await this.addEvents(db, run.runId, [{ type: 'status', status: 'queued' }]);
      return { created: true, status: 'queued' as const, seq: 0 };
    });
  }

  async read(runId: string): Promise<{ run?: StoredRun; lastEventId: string }> {
    const { rows } = await this.pool.query<RunRow & { last_event: string | null }>(
      `SELECT r.*, e.last_event FROM (SELECT max(id)::text AS last_event FROM ${this.schema}.run_events
       WHERE run_id = $1) e LEFT JOIN ${this.schema}.runs r ON r.run_id = $1 AND ${LIVE}`,
      [runId],
    );
    const row = rows[0];
    return { ...(row.run_id ? { run: toRun(row) } : {}), lastEventId: row.last_event ?? '0' };
  }

  async claim(
    runId: string,
    jobSeq: number,
    options: { attempt: number; withJournal: boolean },
  ): Promise<Claimed | undefined> {
    return this.transaction(async (db) => {
      const row = await this.lock(db, runId);
      if (!row || row.job_seq !== jobSeq || (row.status !== 'queued' && row.status !== 'running')) return undefined;
      if (row.status === 'queued') {
        await db.query(`UPDATE ${this.schema}.runs SET status = 'running', updated_at = now() WHERE run_id = $1`, [
          runId,
        ]);
        row.status = 'running';
        await this.addEvents(db, runId, [{ type: 'status', status: 'running' }]);
      } else if (options.attempt > 1) {
        // What the attempt that died streamed after its last journal write or checkpoint goes: this one repeats it.
        const dropped = await db.query(
          `DELETE FROM ${this.schema}.run_events WHERE run_id = $1 AND id IN (SELECT substr(field, 7)::bigint
           FROM ${this.schema}.run_journal WHERE run_id = $1 AND field LIKE 'event:%')`,
          [runId],
        );
        await db.query(`UPDATE ${this.schema}.runs SET event_count = greatest(0, event_count - $2) WHERE run_id = $1`, [
          runId,
          dropped.rowCount ?? 0,
        ]);
        await db.query(`DELETE FROM ${this.schema}.run_journal WHERE run_id = $1 AND field LIKE 'event:%'`, [runId]);
        await this.addEvents(db, runId, [{ type: 'status', status: 'running', attempt: options.attempt }]);
      }
      const journal = new Map<string, string>();
      if (options.withJournal) {
        const { rows } = await db.query<{ field: string; value: string }>(
          `SELECT field, value FROM ${this.schema}.run_journal WHERE run_id = $1`,
          [runId],
        );
        for (const { field, value } of rows) journal.set(unescapeNul(field), unescapeNul(value));
      }
      return { run: toRun(row), journal };
    });
  }

  /** One round trip, as a turn should cost: the function `migrate` made does the whole save in one statement. */
  async checkpoint(input: CheckpointInput): Promise<number | undefined> {
    const events: RunEventData[] = [...input.events];
    if (input.status !== 'running')
      events.push({
        type: 'status',
        status: input.status,
        ...(input.stopReason ? { stopReason: input.stopReason } : {}),
      });
    const { rows } = await this.pool.query<{ next: number | null }>(
      `SELECT ${this.schema}.checkpoint($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) AS next`,
      [
        input.runId,
        input.seq,
        JSON.stringify(input.state),
        input.status,
        input.stopReason ?? null,
        input.text !== undefined ? JSON.stringify(input.text) : null,
        input.error ? JSON.stringify(input.error) : null,
        input.output !== undefined ? JSON.stringify(input.output) : null,
        input.handOff === true,
        ttlOf(input.status, this.finishedTtl, this.waitingTtl),
        ...eventColumns(events),
        this.channels.events,
        this.channels.settled,
        this.maxEvents,
        input.keepJournal === true,
      ],
    );
    return rows[0].next ?? undefined;
  }

  async journal(runId: string, entries: Record<string, string>, events: RunEventData[]): Promise<void> {
    await this.transaction(async (db) => {
      await this.lock(db, runId);
      // The events appended since the last write are final now: this write holds what they tell of.
      await db.query(`DELETE FROM ${this.schema}.run_journal WHERE run_id = $1 AND field LIKE 'event:%'`, [runId]);
      const fields = Object.keys(entries);
      if (fields.length)
        await db.query(
          `INSERT INTO ${this.schema}.run_journal (run_id, field, value)
           SELECT $1, f, v FROM unnest($2::text[], $3::text[]) AS e(f, v)
           ON CONFLICT (run_id, field) DO UPDATE SET value = EXCLUDED.value`,
          [runId, fields.map(escapeNul), Object.values(entries).map(escapeNul)],
        );
      await this.addEvents(db, runId, events);
    });
  }

  async appendEvents(runId: string, events: RunEventData[]): Promise<void> {
    if (!events.length) return;
    await this.transaction(async (db) => {
      await this.lock(db, runId);
      await this.addEvents(db, runId, events, true);
    });
  }

  async decide(
    runId: string,
    seq: number,
    decisions: Record<string, Decision>,
  ): Promise<{ outcome: DecideOutcome; undecided: string[] }> {
    return this.transaction(async (db) => {
      const row = await this.lock(db, runId);
      if (!row) return { outcome: 'missing', undecided: [] };
      if (row.seq !== seq) return { outcome: 'stale', undecided: [] };
      const gathered = row.decisions === null ? {} : (JSON.parse(row.decisions) as Record<string, Decision>);
      const same = ([id, d]: [string, Decision]) => JSON.stringify(gathered[id]) === JSON.stringify(d);
      if (row.status === 'queued' && row.decisions !== null && Object.entries(decisions).every(same))
        return { outcome: 'repeated', undecided: [] };
      if (row.status !== 'waiting') return { outcome: 'stale', undecided: [] };
      // The row is locked: decisions for other calls of the pause, sent at the same time, wait and merge after these.
      const all: Record<string, Decision | undefined> = { ...gathered, ...decisions };
      // A call an agent made inside the run is decided by its path (`call_1/c1`), as `AgentRuns.decide` keys it.
      const pending = (JSON.parse(row.state) as StoredRun['state']).pending.map((p) =>
        p.agentPath?.length ? [...p.agentPath, p.call.id].join('/') : p.call.id,
      );
      const undecided = pending.filter((id) => all[id] === undefined);
      const merged = JSON.stringify(Object.fromEntries(pending.flatMap((id) => (all[id] ? [[id, all[id]]] : []))));
      if (undecided.length) {
        await db.query(`UPDATE ${this.schema}.runs SET decisions = $2, updated_at = now() WHERE run_id = $1`, [
          runId,
          merged,
        ]);
        return { outcome: 'partial', undecided };
      }
      await db.query(
        `UPDATE ${this.schema}.runs SET status = 'queued', job_seq = seq, decisions = $2, updated_at = now(),
         expires_at = NULL WHERE run_id = $1`,
        [runId, merged],
      );
      await this.addEvents(db, runId, [{ type: 'status', status: 'queued' }]);
      return { outcome: 'decided', undecided: [] };
    });
  }

  async cancel(runId: string): Promise<RunStatus | undefined> {
    return this.transaction(async (db) => {
      const row = await this.lock(db, runId);
      if (!row) return undefined;
      if (row.status !== 'queued' && row.status !== 'running' && row.status !== 'waiting') return row.status;
      await db.query(
        `UPDATE ${this.schema}.runs SET status = 'cancelled', stop_reason = 'aborted', decisions = NULL,
         updated_at = now(), expires_at = now() + make_interval(secs => $2) WHERE run_id = $1`,
        [runId, this.finishedTtl],
      );
      await this.addEvents(db, runId, [{ type: 'status', status: 'cancelled', stopReason: 'aborted' }]);
      await notify(db, this.channels.cancel, runId);
      return row.status;
    });
  }

  async fail(runId: string, jobSeq: number, error: StoredError): Promise<boolean> {
    return this.transaction(async (db) => {
      const row = await this.lock(db, runId);
      if (!row || row.job_seq !== jobSeq || (row.status !== 'queued' && row.status !== 'running')) return false;
      await db.query(
        `UPDATE ${this.schema}.runs SET status = 'failed', stop_reason = 'error', error = $2, updated_at = now(),
         expires_at = now() + make_interval(secs => $3) WHERE run_id = $1`,
        [runId, JSON.stringify(error), this.finishedTtl],
      );
      await this.addEvents(db, runId, [{ type: 'status', status: 'failed', stopReason: 'error' }]);
      await notify(db, this.channels.settled, runId);
      return true;
    });
  }

  events(runId: string): RunEventReader {
    let stop: (() => void) | undefined;
    let closed = false;
    const select = async (after: string, count: number): Promise<RunEvent[]> => {
      // Ordered by the column, not by the text it is read as (an output name wins in ORDER BY): as text, 100
      // comes before 99, and a reader that stops at the run's last status event would miss what sorts after it.
      const { rows } = await this.pool.query<{ id: string; type: string; data: string }>(
        `SELECT e.id::text AS id, type, data FROM ${this.schema}.run_events e WHERE run_id = $1 AND e.id > $2
         ORDER BY e.id LIMIT $3`,
        [runId, after, count],
      );
      return rows.map((row) => ({ id: row.id, type: row.type, ...(JSON.parse(row.data) as object) }) as RunEvent);
    };
    return {
      read: async (after, { blockMs, count = 500 }) => {
        if (closed) return [];
        // Listening before the first look: an event written between the look and the wait still wakes it.
        let woken!: () => void;
        const wake = new Promise<void>((resolve) => (woken = resolve));
        const unlisten = await this.listen(this.channels.events, (id) => id === runId && woken());
        stop = woken;
        this.waking.add(woken);
        let timer: NodeJS.Timeout | undefined;
        try {
          const found = await select(after, count);
          if (found.length || blockMs <= 0) return found;
          await Promise.race([wake, new Promise<void>((resolve) => (timer = setTimeout(resolve, blockMs)))]);
          return closed || this.closed ? [] : await select(after, count);
        } finally {
          clearTimeout(timer);
          this.waking.delete(woken);
          unlisten();
          stop = undefined;
        }
      },
      close: () => {
        closed = true;
        stop?.();
      },
    };
  }

  async list(options: { limit: number }): Promise<RunListing[]> {
    const { rows } = await this.pool.query<{
      run_id: string;
      status: RunStatus;
      body: string;
      created_at: string;
      updated_at: string;
    }>(
      `SELECT run_id, status, body, (extract(epoch FROM created_at) * 1000)::bigint::text AS created_at,
       (extract(epoch FROM updated_at) * 1000)::bigint::text AS updated_at FROM ${this.schema}.runs r
       WHERE ${LIVE} ORDER BY r.created_at DESC LIMIT $1`,
      [options.limit],
    );
    return rows.map((row) => {
      const { model } = JSON.parse(row.body) as { model?: unknown };
      return {
        runId: row.run_id,
        status: row.status,
        ...(typeof model === 'string' ? { model } : {}),
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      };
    });
  }

  async onCancel(listener: (runId: string) => void): Promise<CancelSubscription> {
    const unlisten = await this.listen(this.channels.cancel, listener);
    return { close: async () => unlisten() };
  }

  async onSettled(listener: (runId: string) => void): Promise<CancelSubscription> {
    const unlisten = [
      await this.listen(this.channels.settled, listener),
      await this.listen(this.channels.cancel, listener),
    ];
    return { close: async () => unlisten.forEach((off) => off()) };
  }

  async close(): Promise<void> {
    this.closed = true;
    // A read waiting for events ends now, not when its `blockMs` runs out.
    for (const wake of this.waking) wake();
    const listener = await this.listener?.catch(() => undefined);
    this.listener = undefined;
    await listener?.end();
    await this.pool.end();
  }

  /** Run `body` in one transaction on one connection of the pool. */
  private async transaction<T>(body: (db: PoolClient) => Promise<T>): Promise<T> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN');
      const result = await body(db);
      await db.query('COMMIT');
      return result;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release();
    }
  }

  /** The run's row, locked until the transaction ends; `undefined` when there is none or it expired. */
  private async lock(db: PoolClient, runId: string): Promise<RunRow | undefined> {
    const { rows } = await db.query<RunRow>(
      `SELECT * FROM ${this.schema}.runs r WHERE run_id = $1 AND ${LIVE} FOR UPDATE`,
      [runId],
    );
    return rows[0];
  }

  private async drop(db: PoolClient, table: string, runId: string): Promise<void> {
    await db.query(`DELETE FROM ${this.schema}.${table} WHERE run_id = $1`, [runId]);
  }

  /** Append `events` in order (`provisional`: until the next journal write or checkpoint), and wake the run's readers when the transaction commits. */
  private async addEvents(db: PoolClient, runId: string, events: RunEventData[], provisional = false): Promise<void> {
    if (!events.length) return;
    await db.query(`SELECT ${this.schema}.append_events($1, $2, $3, $4, $5, $6)`, [
      runId,
      ...eventColumns(events),
      this.channels.events,
      this.maxEvents,
      provisional,
    ]);
  }

  /** Call `listener` with each payload on `channel`; resolves once listening, with the function that stops it. */
  private async listen(channel: string, listener: (payload: string) => void): Promise<() => void> {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    // Every caller waits for the one LISTEN of its channel: none returns before notifications can reach it.
    let listened = this.listened.get(channel);
    if (!listened) {
      listened = this.listening().then(async (client) => void (await client.query(`LISTEN ${channel}`)));
      this.listened.set(channel, listened);
    }
    await listened;
    const listeners = set;
    return () => listeners.delete(listener);
  }

  private listening(): Promise<Client> {
    this.listener ??= (async () => {
      const client = new Client(this.config);
      client.on('notification', ({ channel, payload }) => {
        for (const listener of this.listeners.get(channel) ?? []) listener(payload ?? '');
      });
      // A lost connection is opened again on the next listen; meanwhile `wait` reads again every few seconds and
      // readers at the end of each `blockMs`. Without an error listener Node would throw it.
      client.on('error', () => undefined);
      client.on('end', () => {
        if (this.listener !== connected) return;
        this.listener = undefined;
        this.listened.clear();
        if (!this.closed) for (const channel of this.listeners.keys()) void this.relisten(channel);
      });
      await client.connect();
      return client;
    })();
    const connected = this.listener;
    return connected;
  }

  /** LISTEN again on `channel` after the listening connection was lost (its listeners are still registered). */
  private async relisten(channel: string): Promise<void> {
    const listened = this.listening().then(async (client) => void (await client.query(`LISTEN ${channel}`)));
    this.listened.set(channel, listened);
    await listened.catch(() => this.listened.delete(channel));
  }
}

/** A row that has not expired: expired runs read as unknown until `deleteExpired` drops them. */
const LIVE = '(r.expires_at IS NULL OR r.expires_at > now())';

function toRun(row: RunRow): StoredRun {
  const run: StoredRun = {
    runId: row.run_id,
    status: row.status,
    seq: row.seq,
    jobSeq: row.job_seq,
    state: JSON.parse(row.state) as StoredRun['state'],
    body: JSON.parse(row.body) as Record<string, unknown>,
    meta: JSON.parse(row.meta) as unknown,
  };
  if (row.decisions !== null) run.decisions = JSON.parse(row.decisions) as StoredRun['decisions'];
  if (row.stop_reason !== null) run.stopReason = row.stop_reason;
  if (row.text !== null) run.text = JSON.parse(row.text) as string;
  if (row.output !== null) run.output = JSON.parse(row.output) as unknown;
  if (row.error !== null) run.error = JSON.parse(row.error) as StoredError;
  return run;
}

/** Seconds until a run in `status` expires; `null` while it goes on. */
function ttlOf(status: RunStatus, finished: number, waiting: number): number | null {
  if (status === 'completed' || status === 'failed' || status === 'cancelled') return finished;
  return status === 'waiting' ? waiting : null;
}

/** Events as two columns, their types and the rest of each as JSON, for `unnest`. */
function eventColumns(events: RunEventData[]): [string[], string[]] {
  return [events.map((event) => event.type), events.map(({ type: _, ...rest }) => JSON.stringify(rest))];
}

/** Tell the listeners of `channel` when the transaction commits. */
async function notify(db: PoolClient, channel: string, payload: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

/**
 * A journal field or value as a PostgreSQL text can hold it: U+0000 as a backslash and `0`, each backslash doubled
 * so that escape reads back alone. Journal values are JSON in practice, but a recorded model response need not be, and a field holds a
 * tool call id the model chose.
 */
function escapeNul(text: string): string {
  return text.includes('\0') || text.includes('\\') ? text.replace(/\\/g, '\\\\').replace(/\0/g, '\\0') : text;
}

/** What {@link escapeNul} stored, as it was given. */
function unescapeNul(text: string): string {
  return text.includes('\\') ? text.replace(/\\(\\|0)/g, (_, c: string) => (c === '0' ? '\0' : '\\')) : text;
}
