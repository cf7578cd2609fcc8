import { setImmediate as nextTick } from 'node:timers/promises';
import type { ChatCompletionMessageToolCall } from '../../llm/type';
import type { AnyToolDefinition } from '../../toolCall/type';
import type { DurableState } from '../state/run-state-snapshot';
import { MAX_SEARCHES_PER_TURN, parseQuery, SEARCH_TOOLS_NAME, searchToolsTool } from './search-tools-tool';
import { ToolSearchIndex, type ToolSearchHits } from './tool-search-index';
import { toolNameOf, type ToolSchema } from '../../llm/tool-schema';

/** What a tool set's search needs, worked out once per set (and again only when the set changes). */
type Catalog = {
  /** The set it was made from, entry by entry: a set changed in place is catalogued again. */
  readonly source: readonly AnyToolDefinition[];
  /** The deferred tools by name. */
  readonly deferred: ReadonlyMap<string, AnyToolDefinition>;
  /** The schemas of the tools that are always sent, in the set's order. */
  readonly alwaysSent: readonly ToolSchema[];
  readonly index: ToolSearchIndex;
};

const catalogs = new WeakMap<AnyToolDefinition[], Catalog>();

/**
 * The most tools one request may carry: OpenAI's limit (the strictest of the providers'), which a request over it
 * fails with a 400. Found tools beyond it make room by leaving out the ones found longest ago.
 */
export const MAX_TOOLS_PER_REQUEST = 128;

/**
 * The deferred tools of one run: which of them the model has found (kept in the run's durable state as
 * `foundTools`, so a resumed run keeps them), the `search_tools` tool that finds them, and the tools each request
 * sends. Only a run with a deferred tool has one.
 *
 * @internal
 */
export class ToolSearch {
  /** The run's tools: the set it was given, then `search_tools`. */
  readonly tools: AnyToolDefinition[];
  /** How many found tools a request has room for, beside the tools always sent and `search_tools`. */
  private readonly room: number;
  private sent?: { found: readonly string[] | undefined; length: number; schemas: ToolSchema[] };
  private known?: { found: string[]; names: Set<string> };
  /** What each `search_tools` call of the latest turn found; `undefined` for a call past {@link MAX_SEARCHES_PER_TURN}. */
  private turn = new Map<ChatCompletionMessageToolCall, ToolSearchHits | undefined>();

  private constructor(
    private readonly catalog: Catalog,
    tools: AnyToolDefinition[],
    /** The run's durable state as it is now (a resume replaces it). */
    private readonly durable: () => DurableState,
    /** A deferred tool `body.tool_choice` names: the request must carry it, so it counts as found from the start. */
    private readonly chosen: string | undefined,
  ) {
    const search = searchToolsTool(
      (call, query) => (this.turn.has(call) ? this.turn.get(call) : catalog.index.search(query)),
      catalog.deferred.size,
    );
    this.tools = [...tools, search];
    this.room = Math.max(0, MAX_TOOLS_PER_REQUEST - catalog.alwaysSent.length - 1);
  }

  /** The search of a run over `tools`, or none when no tool of the set is deferred (the run then pays nothing). */
  static of(tools: AnyToolDefinition[], durable: () => DurableState, toolChoice?: unknown): ToolSearch | undefined {
    if (!Array.isArray(tools) || !tools.some((tool) => tool?.deferred === true)) return undefined;
    const catalog = catalogOf(tools);
    const chosen = chosenName(toolChoice);
    return new ToolSearch(
      catalog,
      tools,
      durable,
      chosen !== undefined && catalog.deferred.has(chosen) ? chosen : undefined,
    );
  }

  /**
   * The schemas the next request sends: the tools that are not deferred (in the set's order), `search_tools`, then
   * the deferred tools found so far, in the order they were found. Each request's list starts with the previous
   * one's: a found tool never moves those before it (a prefix-keyed prompt cache keeps them). The same array while
   * nothing new is found. Past {@link MAX_TOOLS_PER_REQUEST}, the tools found longest ago are left out.
   */
  schemas(): ToolSchema[] {
    if (this.chosen !== undefined) this.markFound(this.chosen);
    const found = this.durable().foundTools;
    const length = found?.length ?? 0;
    const sent = this.sent;
    if (sent && sent.found === found && sent.length === length) return sent.schemas;
    const schemas = [...this.catalog.alwaysSent, this.tools[this.tools.length - 1].schema];
    for (const name of this.window(found ?? [])) schemas.push(this.catalog.deferred.get(name)!.schema);
    this.sent = { found, length, schemas };
    return schemas;
  }

  /**
   * Take what a turn's calls find, in call order: a deferred tool the model calls by name is found by that call
   * (whatever its outcome), and a `search_tools` call finds what its answer lists. Worked out here from the calls,
   * not inside the tool, so the order does not depend on `toolConcurrency` and an answer replayed from a journal
   * finds the same tools. Each call's query is searched once, here (the tool answers from what this found); at most
   * {@link MAX_SEARCHES_PER_TURN} calls a turn are searched, one per tick of the event loop.
   */
  async noteCalls(calls: readonly ChatCompletionMessageToolCall[]): Promise<void> {
    this.turn = new Map();
    let searched = 0;
    for (const call of calls) {
      const name = call.function?.name;
      if (name === SEARCH_TOOLS_NAME) {
        const parsed = parseQuery(call.function.arguments);
        if (!parsed.success) continue;
        if (searched === MAX_SEARCHES_PER_TURN) {
          this.turn.set(call, undefined);
          continue;
        }
        if (searched++) await nextTick();
        const hits = await this.catalog.index.search(parsed.data.query);
        this.turn.set(call, hits);
        for (const tool of hits.tools) this.markFound(toolNameOf(tool.schema));
      } else if (typeof name === 'string' && this.catalog.deferred.has(name)) {
        this.markFound(name);
      }
    }
  }

  /**
   * Found again: a tool the requests left out (found longest ago, past the limit) goes to the end of the list, so
   * the next request carries it. One still sent stays where it is.
   */
  private markFound(name: string): void {
    const durable = this.durable();
    const found = (durable.foundTools ??= []);
    if (this.known?.found !== found) this.known = { found, names: new Set(found) };
    if (this.known.names.has(name)) {
      if (found.length > this.room && !this.window(found).includes(name)) {
        found.splice(found.indexOf(name), 1);
        found.push(name);
        // Same list, same length: the schemas sent last no longer hold.
        this.sent = undefined;
      }
      return;
    }
    this.known.names.add(name);
    found.push(name);
  }

  /**
   * The found tools a request carries, in the order they were found: each once, only those the set has (a resumed
   * state may name tools it no longer has), and the last that fit.
   */
  private window(found: readonly string[]): string[] {
    const names: string[] = [];
    const seen = new Set<string>();
    for (const name of found) {
      if (this.catalog.deferred.has(name) && !seen.has(name)) names.push(name);
      seen.add(name);
    }
    return this.room ? names.slice(-this.room) : [];
  }
}

/** The tool a chat `tool_choice` names (`{ type: 'function', function: { name } }`), if it names one. */
function chosenName(toolChoice: unknown): string | undefined {
  if (typeof toolChoice !== 'object' || toolChoice === null) return undefined;
  const name = (toolChoice as { function?: { name?: unknown } }).function?.name;
  return typeof name === 'string' ? name : undefined;
}

function catalogOf(tools: AnyToolDefinition[]): Catalog {
  const cached = catalogs.get(tools);
  if (cached && sameEntries(cached.source, tools)) return cached;
  const deferred = new Map<string, AnyToolDefinition>();
  const alwaysSent: ToolSchema[] = [];
  for (const tool of tools) {
    if (tool?.deferred === true) deferred.set(toolNameOf(tool.schema), tool);
    else alwaysSent.push(tool.schema);
  }
  const catalog: Catalog = {
    source: tools.slice(),
    deferred,
    alwaysSent,
    index: new ToolSearchIndex([...deferred.values()]),
  };
  catalogs.set(tools, catalog);
  return catalog;
}

function sameEntries(a: readonly AnyToolDefinition[], b: readonly AnyToolDefinition[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
