/**
 * The Lua scripts that change a run. Each runs atomically in Redis, so a run's status, its sequence number and
 * the events that announce a change never disagree, whichever process sent the script.
 */

/**
 * The check every write of a job makes first, against the count of the run's job writes the job expects (ARGV, ''
 * for none). `count_verdict` compares: that count holds (0); fewer while the run is still queued or running, the
 * store lost writes it had answered (-3); otherwise another job or a cancel has the run (-1). `guard` reads the run,
 * and bumps the count of a running run whose count holds (a checkpoint, which reads the run anyway, bumps it itself).
 * Redis answers a write before its AOF holds it (for up to two seconds under `appendfsync everysec` on a busy disk),
 * so a crash can take back a write the job built on; without this, the job's next write would land behind the gap.
 */
const WRITE_GUARD = `
local function count_verdict(status, stored, expected)
  local want = tonumber(expected)
  if stored == want then return 0 end
  if stored < want and (status == 'running' or status == 'queued') then return -3 end
  return -1
end
local function guard(run, expected)
  if expected == '' then return 0 end
  local f = redis.call('HMGET', run, 'status', 'writes')
  local stored = tonumber(f[2] or '0')
  local verdict = count_verdict(f[1], stored, expected)
  if verdict ~= 0 then return verdict end
  if f[1] ~= 'running' then return -1 end
  redis.call('HSET', run, 'writes', stored + 1)
  return 0
end
`;

/** KEYS: run, events. ARGV: state, body, meta, now, status event. → {created 0|1, status, seq} */
export const CREATE = `
local f = redis.call('HMGET', KEYS[1], 'status', 'seq')
if f[1] then return {0, f[1], f[2]} end
redis.call('HSET', KEYS[1], 'status', 'queued', 'seq', '0', 'jobSeq', '0', 'state', ARGV[1], 'body', ARGV[2],
  'meta', ARGV[3], 'createdAt', ARGV[4], 'updatedAt', ARGV[4])
redis.call('XADD', KEYS[2], '*', 'type', 'status', 'data', ARGV[5])
return {1, 'queued', '0'}
`;

/** Read a run's hash and its last event together. KEYS: run, events. → {run pairs, last event entry (or none)} */
export const READ = `
return {redis.call('HGETALL', KEYS[1]), redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)}
`;

/**
 * Append events on their own (a streaming turn's, between store writes), each trimmed to about ARGV[1] entries, and
 * name them provisional until the next journal write or checkpoint. KEYS: events, provisional, run. ARGV: max events,
 * provisional ttl, expected writes (see the guard), then (type, data) per event. → 0, or the guard's refusal
 */
export const APPEND_EVENTS = `${WRITE_GUARD}
local refused = guard(KEYS[3], ARGV[3])
if refused ~= 0 then return refused end
for i = 4, #ARGV, 2 do
  local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'type', ARGV[i], 'data', ARGV[i + 1])
  redis.call('RPUSH', KEYS[2], id)
end
redis.call('EXPIRE', KEYS[2], ARGV[2])
return 0
`;

/**
 * Write journal entries (a tool's result, the model responses its call came from) with the events buffered since the
 * last write, which then are final: the events appended on their own so far tell of what this write holds. One
 * script, not a pipeline: one command to send and answer, and the entries and their events land together.
 * KEYS: journal, events, provisional, run. ARGV: max events, expected writes (see the guard), entry count n, then n
 * (field, value) pairs, then (type, data) per event. → 0, or the guard's refusal
 */
export const JOURNAL = `${WRITE_GUARD}
local refused = guard(KEYS[4], ARGV[2])
if refused ~= 0 then return refused end
local n = tonumber(ARGV[3])
if n > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, 4, 3 + 2 * n)) end
for i = 4 + 2 * n, #ARGV, 2 do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], '*', 'type', ARGV[i], 'data', ARGV[i + 1])
end
redis.call('DEL', KEYS[3])
return 0
`;

/**
 * Take a run for the job queued at sequence number ARGV[1]: only a queued or running run whose current job that is
 * (a job runs many turns, so the run's own number may be further on).
 * A retried attempt first deletes the provisional events of the attempt before it: it repeats what they tell of.
 * It counts as the run's next job write (the run's `writes`).
 * KEYS: run, events, journal, provisional. ARGV: job seq, now, status event of a retried attempt (or ''), with
 * journal (0|1). → {'skip', status, seq} | {'ok', n, ...run pairs (n values), ...journal pairs}
 */
export const CLAIM = `
local f = redis.call('HMGET', KEYS[1], 'status', 'seq', 'jobSeq')
if not f[1] then return {'skip', '', ''} end
local jobSeq = f[3] or f[2]
if jobSeq ~= ARGV[1] or (f[1] ~= 'queued' and f[1] ~= 'running') then return {'skip', f[1], f[2]} end
if f[1] == 'queued' then
  redis.call('HSET', KEYS[1], 'status', 'running', 'updatedAt', ARGV[2])
  redis.call('XADD', KEYS[2], '*', 'type', 'status', 'data', '{"status":"running"}')
elseif ARGV[3] ~= '' then
  local dead = redis.call('LRANGE', KEYS[4], 0, -1)
  if #dead > 0 then redis.call('XDEL', KEYS[2], unpack(dead)) end
  redis.call('DEL', KEYS[4])
  redis.call('XADD', KEYS[2], '*', 'type', 'status', 'data', ARGV[3])
end
-- A claim is the job's first write: a job that held the run before finds its next write refused.
redis.call('HINCRBY', KEYS[1], 'writes', 1)
local run = redis.call('HGETALL', KEYS[1])
local out = {'ok', #run}
for i = 1, #run do out[#out + 1] = run[i] end
if ARGV[4] == '1' then
  local journal = redis.call('HGETALL', KEYS[3])
  for i = 1, #journal do out[#out + 1] = journal[i] end
end
return out
`;

/**
 * Save a turn, or the run's pause or end: only from the worker holding sequence number ARGV[1] of a running run.
 * The event stream is trimmed to about ARGV[10] entries; a run that now waits for a person expires after ARGV[11]
 * seconds unless decided. With ARGV[12] = '1' the run is handed to a new job queued at the new number. A run that
 * now waits or has ended is named on the settled channel ARGV[14] (ARGV[15] is its id). An empty optional field
 * (stopReason, text, error, output) is removed.
 * KEYS: run, journal, events, provisional. ARGV: seq, state, status, stopReason, text, error, output, finished ttl, now, max
 * events, waiting ttl, hand off, event count, settled channel, run id, keep journal ('1': an agent's turn, whose
 * root turn's results stay journaled), expected writes (as the guard reads it; '' for none), then (type, data) per
 * event. → the new sequence number, -1 (moved on), -2 (not running) or -3 (the store lost writes it had answered)
 */
export const CHECKPOINT = `${WRITE_GUARD}
local f = redis.call('HMGET', KEYS[1], 'seq', 'status', 'writes')
local writes = tonumber(f[3] or '0')
if ARGV[17] ~= '' then
  local verdict = count_verdict(f[2], writes, ARGV[17])
  if verdict ~= 0 then return verdict end
end
if f[1] ~= ARGV[1] then return -1 end
if f[2] ~= 'running' then return -2 end
local nextSeq = tonumber(f[1]) + 1
local status = ARGV[3]
-- One HSET and one HDEL, whatever the fields: each command inside a script costs Redis a dispatch.
local fields = {'seq', nextSeq, 'state', ARGV[2], 'status', status, 'updatedAt', ARGV[9], 'writes', writes + 1}
if ARGV[12] == '1' then table.insert(fields, 'jobSeq'); table.insert(fields, nextSeq) end
local gone = {'decisions'}
for i, field in ipairs({'stopReason', 'text', 'error', 'output'}) do
  local value = ARGV[3 + i]
  if value == '' then
    table.insert(gone, field)
  else
    table.insert(fields, field); table.insert(fields, value)
  end
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('HDEL', KEYS[1], unpack(gone))
if ARGV[16] == '1' then redis.call('DEL', KEYS[4]) else redis.call('DEL', KEYS[2], KEYS[4]) end
for i = 0, tonumber(ARGV[13]) - 1 do
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[10], '*', 'type', ARGV[18 + 2 * i], 'data', ARGV[19 + 2 * i])
end
if status == 'completed' or status == 'failed' then
  for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[8]) end
elseif status == 'waiting' then
  for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[11]) end
end
if status ~= 'running' then redis.call('PUBLISH', ARGV[14], ARGV[15]) end
return nextSeq
`;

/**
 * Save the decisions a waiting run gathered, if nothing changed them since they were read (ARGV[2], '' for none):
 * the merge is made by the caller and checked here, so two deciders at once each retry rather than one losing.
 * With ARGV[4] = '1' every pending call has one: the run is queued at its sequence number and its waiting expiry
 * lifted. KEYS: run, events. ARGV: seq, decisions read, decisions merged, complete (0|1), now, status event.
 * → 1 queued, 4 gathered (still waiting), 3 changed since read (read again), 0 stale, -1 no such run
 */
export const DECIDE = `
local f = redis.call('HMGET', KEYS[1], 'status', 'seq', 'decisions')
if not f[1] then return -1 end
if f[2] ~= ARGV[1] or f[1] ~= 'waiting' then return 0 end
if (f[3] or '') ~= ARGV[2] then return 3 end
if ARGV[4] ~= '1' then
  redis.call('HSET', KEYS[1], 'decisions', ARGV[3], 'updatedAt', ARGV[5])
  return 4
end
redis.call('HSET', KEYS[1], 'status', 'queued', 'jobSeq', ARGV[1], 'decisions', ARGV[3], 'updatedAt', ARGV[5])
redis.call('XADD', KEYS[2], '*', 'type', 'status', 'data', ARGV[6])
-- Decided: the run goes on, so it no longer expires as a waiting one.
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
return 1
`;

/**
 * Cancel a run that has not ended and tell every worker. KEYS: run, journal, events.
 * ARGV: ttl, channel, runId, now, status event. → the status before, or nil when there is no such run
 */
export const CANCEL = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return nil end
if status == 'queued' or status == 'running' or status == 'waiting' then
  redis.call('HSET', KEYS[1], 'status', 'cancelled', 'stopReason', 'aborted', 'updatedAt', ARGV[4])
  redis.call('HDEL', KEYS[1], 'decisions')
  redis.call('XADD', KEYS[3], '*', 'type', 'status', 'data', ARGV[5])
  for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return status
`;

/**
 * End a run whose job BullMQ gave up on (attempts spent, stalled too often), unless it moved on to another job.
 * KEYS: run, journal, events. ARGV: job seq, error, ttl, now, status event, settled channel, run id.
 * → 1 failed, 0 untouched
 */
export const FAIL = `
local f = redis.call('HMGET', KEYS[1], 'status', 'seq', 'jobSeq')
if (f[3] or f[2]) ~= ARGV[1] or (f[1] ~= 'queued' and f[1] ~= 'running') then return 0 end
redis.call('HSET', KEYS[1], 'status', 'failed', 'stopReason', 'error', 'error', ARGV[2], 'updatedAt', ARGV[4])
redis.call('XADD', KEYS[3], '*', 'type', 'status', 'data', ARGV[5])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
`;
