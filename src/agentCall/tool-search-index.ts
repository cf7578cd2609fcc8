import MiniSearch from 'minisearch';
import type { ToolDefinition } from '../toolCall/type';

/** What one search hands back: the tools found, best first, and the words it searched for. */
export type ToolSearchHits = { tools: ToolDefinition[]; terms: string[] };

/** The most tools one search answers with. */
export const MAX_TOOL_SEARCH_RESULTS = 10;
/** A query is cut to this many characters before it is read, so a huge one costs no more than this. */
export const MAX_TOOL_SEARCH_QUERY_CHARS = 500;
/** Distinct words of a query searched for; each one is a prefix and fuzzy lookup in the index. */
const MAX_QUERY_TERMS = 16;
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
  private index?: MiniSearch<IndexedTool>;
  /**
   * The last search: a `search_tools` call is searched when the loop takes what it finds and again when the tool
   * answers it, with the same query, so the second costs nothing.
   */
  private last?: { query: string; hits: ToolSearchHits };

  constructor(private readonly tools: readonly ToolDefinition[]) {}

  /** The best tools for `query` (at most {@link MAX_TOOL_SEARCH_RESULTS}); none when it holds no word. */
  search(query: string): ToolSearchHits {
    const last = this.last;
    if (last?.query === query) return last.hits;
    const hits = this.rank(query);
    this.last = { query, hits };
    return hits;
  }

  private rank(query: string): ToolSearchHits {
    const terms = queryTerms(query);
    if (!terms.length) return { tools: [], terms };
    const index = (this.index ??= buildIndex(this.tools));
    const hits = index.search(terms.join(' '));
    // minisearch sorts by score; equal scores keep the order of the tool set, so an answer never depends on chance.
    hits.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
    return { tools: hits.slice(0, MAX_TOOL_SEARCH_RESULTS).map((hit) => this.tools[hit.id as number]), terms };
  }
}

function buildIndex(tools: readonly ToolDefinition[]): MiniSearch<IndexedTool> {
  const index = new MiniSearch<IndexedTool>({
    fields: ['name', 'description'],
    tokenize: splitWords,
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
  index.addAll(
    tools.map((tool, id) => ({
      id,
      name: tool.schema.function.name,
      description: tool.schema.function.description ?? '',
    })),
  );
  return index;
}

/**
 * The distinct words of a query, lowercased, stop words left out, from its first
 * {@link MAX_TOOL_SEARCH_QUERY_CHARS} characters.
 */
function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const word of splitWords(query.slice(0, MAX_TOOL_SEARCH_QUERY_CHARS))) {
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
