import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Decision } from '../index';
import { getErrText } from '../index';
import { cappedJson } from './capped-json';
import { exportFileName, exportRunAsTest } from './export-test';
import { send } from './respond';
import type { ModelPrice } from './source';
import type { DevtoolsOptions } from './options';

/** Characters of each text a page of the timeline carries; the whole text is one more request away. */
export const PAGE_TEXT_CHARS = 4000;
/** Timeline entries per page, at most. */
export const MAX_PAGE_ITEMS = 200;
/** How much of a request and its response the page gets: each string cut as a timeline text is, and a bound in all. */
const EXCHANGE_CAP = { maxString: PAGE_TEXT_CHARS, maxNodes: 20_000, maxDepth: 32 };
/** Bytes of a decision or cancel request. */
const MAX_BODY_BYTES = 64 * 1024;

/** The JSON API under `/api/`. */
export async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: DevtoolsOptions,
): Promise<void> {
  const { source } = options;
  const json = (status: number, value: unknown) => send(res, status, 'application/json', JSON.stringify(value));
  const failed = (error: unknown) => json(503, { error: problemText(source.problem?.(), error) });
  if (req.method === 'GET' && url.pathname === '/api/runs') {
    try {
      const runs = await source.list();
      const withCost = runs.map((run) => {
        const price = run.model ? options.pricing?.[run.model] : undefined;
        return price ? { ...run, cost: costOf(run, price) } : run;
      });
      return json(200, { runs: withCost, problem: source.problem?.() ?? null });
    } catch (error) {
      return failed(error);
    }
  }
  const match = /^\/api\/runs\/([^/]+)(?:\/(text|exchange|export|decide|cancel))?$/.exec(url.pathname);
  if (!match) return json(404, { error: 'Not found' });
  let runId: string;
  try {
    runId = decodeURIComponent(match[1]);
  } catch {
    return json(400, { error: 'Bad run id' });
  }
  const action = match[2];
  try {
    if (req.method === 'GET' && action === undefined) {
      const offset = intParam(url, 'offset', 0);
      const limit = Math.min(intParam(url, 'limit', 100), MAX_PAGE_ITEMS);
      const page = await source.page(runId, { offset, limit, maxChars: PAGE_TEXT_CHARS });
      if (!page) return json(404, { error: 'No such run' });
      const price = page.summary.model ? options.pricing?.[page.summary.model] : undefined;
      if (price) page.summary.cost = costOf(page.summary, price);
      return json(200, page);
    }
    if (req.method === 'GET' && action === 'text') {
      const text = await source.fullText(runId, intParam(url, 'index', -1), url.searchParams.get('field') ?? '');
      if (text === undefined) return json(404, { error: 'No such text' });
      return send(res, 200, 'text/plain; charset=utf-8', text);
    }
    if (req.method === 'GET' && action === 'exchange') {
      if (!source.exchange) return json(404, { error: 'This source does not record request bodies' });
      const exchange = await source.exchange(runId, intParam(url, 'index', -1));
      if (!exchange) return json(404, { error: 'No request body recorded for this entry' });
      return json(200, cappedJson(exchange, EXCHANGE_CAP));
    }
    if (req.method === 'GET' && action === 'export') {
      const run = await source.recorded(runId);
      if (!run) return json(404, { error: 'No such run' });
      const runner = url.searchParams.get('runner') === 'vitest' ? 'vitest' : 'jest';
      return send(res, 200, 'text/plain; charset=utf-8', exportRunAsTest(run, { runner }), {
        'content-disposition': `attachment; filename="${exportFileName(runId)}"`,
      });
    }
    if (req.method === 'POST' && (action === 'decide' || action === 'cancel')) {
      // A form post from another page cannot set this type without a CORS preflight, which is never answered.
      if (!String(req.headers['content-type']).startsWith('application/json')) return json(415, { error: 'Send JSON' });
      const body = await readJson(req);
      if (action === 'cancel') {
        if (!source.cancel) return json(405, { error: 'This source cannot cancel runs' });
        await source.cancel(runId);
        return json(200, { ok: true });
      }
      if (!source.decide) return json(405, { error: 'This source cannot decide' });
      const decisions = parseDecisions(body);
      if (!decisions) return json(400, { error: 'Bad decisions' });
      if (!Object.keys(decisions).length)
        return json(400, {
          name: 'InvalidDecisionsError',
          error: 'No decision: send { "decisions": { "<callId>": { "approve": true } } } for a pending call',
        });
      const { undecided } = await source.decide(runId, decisions);
      return json(200, { ok: true, undecided });
    }
    return json(405, { error: 'Method not allowed' });
  } catch (error) {
    if (source.problem?.()) return failed(error);
    return json(409, { error: errorMessage(error) });
  }
}

function intParam(url: URL, name: string, fallback: number): number {
  const value = Number(url.searchParams.get(name) ?? fallback);
  return Number.isSafeInteger(value) ? value : fallback;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('Request body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown;
}

/** `{ decisions: { [callId]: { approve: true } | { approve: false, reason? } } }`, checked. */
function parseDecisions(body: unknown): Record<string, Decision> | undefined {
  const decisions = (body as { decisions?: unknown } | null)?.decisions;
  if (!decisions || typeof decisions !== 'object') return undefined;
  const out: Record<string, Decision> = {};
  for (const [id, value] of Object.entries(decisions as Record<string, unknown>)) {
    const d = value as { approve?: unknown; reason?: unknown };
    if (d?.approve === true) out[id] = { approve: true };
    else if (d?.approve === false)
      out[id] =
        typeof d.reason === 'string' && d.reason
          ? { approve: false, reason: d.reason.slice(0, 2000) }
          : { approve: false };
    else return undefined;
  }
  return out;
}

function errorMessage(error: unknown): string {
  return getErrText(error);
}

function problemText(problem: string | undefined, error: unknown): string {
  return problem ?? `The run source failed: ${errorMessage(error)}`;
}

function costOf(run: { inputTokens: number; outputTokens: number }, price: ModelPrice): number {
  return (run.inputTokens * price.input + run.outputTokens * price.output) / 1e6;
}
