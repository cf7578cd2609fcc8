import MiniSearch from 'minisearch';
import { setImmediate as nextTick } from 'node:timers/promises';
import type { AnyToolDefinition } from '../../toolCall/type';
import { toolDescriptionOf, toolNameOf } from '../../llm/tool-schema';

/** What one search hands back: the tools found, best first, and the words it searched for. */
export type ToolSearchHits = { tools: AnyToolDefinition[]; terms: string[] };

/** The most tools one search answers with. */
export const MAX_TOOL_SEARCH_RESULTS = 10;
/** A query is cut to this many characters before it is read, so a huge one costs no more than this. */
export const MAX_TOOL_SEARCH_QUERY_CHARS = 500;
/** Distinct words of a query searched for; each one is a prefix and fuzzy lookup in the index. */
const MAX_QUERY_TERMS = 16;
/**
 * Each description is indexed up to this many characters (the answer quotes 300): a remote server's 2,000-character
 * descriptions would make the index, and every fuzzy lookup in it, several times larger for words nobody searches.
 */
export const MAX_INDEXED_DESCRIPTION_CHARS = 500;
/** Tools indexed between two yields to the event loop: a thousand tools never hold it for one long build. */
const INDEX_CHUNK = 25;
/** Queries whose answers are kept, so the loop and the tool of the same call search once. */
const REMEMBERED_QUERIES = 16;
/** A name matters more than a description: `get_weather` is the better hit for "weather" than a tool that mentions it. */
const NAME_BOOST = 3;

type IndexedTool = { id: number; name: string; description: string };

/**
 * Words too common to tell tools apart: a query "sum of two numbers" should not find every tool whose description
 * says "of". Left out of the index and of queries alike.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the this to with'.split(' '),
);

/**
 * The deferred tools of a tool set, ranked by name and description with minisearch (BM25 scoring, prefix and
 * fuzzy matching). Built on the first search and kept for its tool set, so runs that share a tools array share it.
 *
 * @internal
 */
export class ToolSearchIndex {
  private index?: Promise<MiniSearch<IndexedTool>>;
  /** The latest answers by query, oldest first: the loop takes what a call finds, then the tool answers it. */
  private readonly recent = new Map<string, ToolSearchHits>();
  /** How many queries were ranked (a query answered from {@link recent} is not): the work a search costs. */
  ranked = 0;

  constructor(private readonly tools: readonly AnyToolDefinition[]) {}

  /**
   * The best tools for `query` (at most {@link MAX_TOOL_SEARCH_RESULTS}); none when it holds no word. The first
   * search builds the index a chunk at a time, yielding between chunks.
   */
  async search(query: string): Promise<ToolSearchHits> {
    const key = query.slice(0, MAX_TOOL_SEARCH_QUERY_CHARS);
    const known = this.recent.get(key);
    if (known) return known;
    const terms = queryTerms(key);
    const hits = terms.length
      ? { tools: await this.rank(await (this.index ??= buildIndex(this.tools)), terms), terms }
      : { tools: [], terms };
    if (this.recent.size === REMEMBERED_QUERIES) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(key, hits);
    return hits;
  }

  /**
   * Each word is looked up on its own, with a yield between words, so no lookup holds the event loop for a whole
   * query. Scores add up as minisearch's `OR` adds them (the sum, times the number of words a tool matched).
   */
  private async rank(index: MiniSearch<IndexedTool>, terms: string[]): Promise<AnyToolDefinition[]> {
    this.ranked++;
    const found = new Map<number, { score: number; words: number; exact: boolean }>();
    for (let i = 0; i < terms.length; i++) {
      if (i) await nextTick();
      for (const hit of index.search(terms[i])) {
        const id = hit.id as number;
        const entry = found.get(id) ?? { score: 0, words: 0, exact: false };
        entry.score += hit.score;
        entry.words++;
        entry.exact ||= hit.terms.includes(terms[i]);
        found.set(id, entry);
      }
    }
    // A local tool that holds a word of the query as it is comes before any remote one, whatever a remote
    // description repeats; then the score, and equal scores keep the order of the tool set, so an answer never
    // depends on chance.
    const ranked = [...found].map(([id, { score, words, exact }]) => ({
      id,
      first: exact && this.tools[id].remote !== true ? 0 : 1,
      score: score * words,
    }));
    ranked.sort((a, b) => a.first - b.first || b.score - a.score || a.id - b.id);
    return ranked.slice(0, MAX_TOOL_SEARCH_RESULTS).map(({ id }) => this.tools[id]);
  }
}

async function buildIndex(tools: readonly AnyToolDefinition[]): Promise<MiniSearch<IndexedTool>> {
  const index = new MiniSearch<IndexedTool>({
    fields: ['name', 'description'],
    // Each word once: a description that repeats a word a hundred times ranks as one that says it once.
    tokenize: (text) => [...new Set(splitWords(text))],
    processTerm: (term) => {
      const word = term.toLowerCase();
      return STOP_WORDS.has(word) ? null : word;
    },
    searchOptions: {
      boost: { name: NAME_BOOST },
      combineWith: 'OR',
      // Short words match too much as prefixes or with typos ("a" would prefix everything).
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      maxFuzzy: 2,
    },
  });
  for (let start = 0; start < tools.length; start += INDEX_CHUNK) {
    if (start) await nextTick();
    index.addAll(
      tools.slice(start, start + INDEX_CHUNK).map((tool, i) => ({
        id: start + i,
        name: toolNameOf(tool.schema),
        description: (toolDescriptionOf(tool.schema) ?? '').slice(0, MAX_INDEXED_DESCRIPTION_CHARS),
      })),
    );
  }
  return index;
}

/**
 * The distinct words of a query (already cut to {@link MAX_TOOL_SEARCH_QUERY_CHARS} characters), lowercased, stop
 * words left out.
 */
function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const word of splitWords(query)) {
    const term = word.toLowerCase();
    if (STOP_WORDS.has(term)) continue;
    terms.add(term);
    if (terms.size === MAX_QUERY_TERMS) break;
  }
  return [...terms];
}

/**
 * Words of a name or a text: split at anything not a letter or digit, and inside camelCase, so `get_weather`,
 * `getWeather` and `get-weather` are all found by "weather". Each pattern is linear in the text.
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}
