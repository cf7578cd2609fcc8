import type { ChatCompletionMessageToolCall, ChatCompletionTool } from '../../llm/type';
import { modelSafeText, problemListText } from '../../text/model-text';
import { safeParseJsonArgs } from '../../toolCall/parse-json-args';
import type { ToolDefinition, ToolParseResult } from '../../toolCall/type';
import { deepFreeze } from '../../utils/deep-freeze';
import { MAX_TOOL_SEARCH_RESULTS, type ToolSearchHits } from './tool-search-index';
import { toolDescriptionOf, toolNameOf } from '../../llm/tool-schema';

/** The name of the tool the loop adds when a tool is deferred. A tool of the set with this name is a duplicate. */
export const SEARCH_TOOLS_NAME = 'search_tools';

/**
 * The `search_tools` calls one turn searches; later calls of the turn are answered with a note to search again in
 * the next turn. With the index's caps (16 words a query, descriptions indexed up to 500 characters), the work of a
 * turn is bounded whatever the model sends, and the loop yields to the event loop between searches.
 */
export const MAX_SEARCHES_PER_TURN = 8;

/** Each description in an answer is cut to this: the full one goes out with the tool's schema once it is found. */
const MAX_ANSWER_DESCRIPTION_CHARS = 300;
/** A query quoted back in an answer is cut to this. */
const MAX_QUOTED_QUERY_CHARS = 100;

const SCHEMA: ChatCompletionTool = deepFreeze({
  type: 'function',
  function: {
    name: SEARCH_TOOLS_NAME,
    description:
      'Search the tools that are not loaded yet. Describe what you need in a few words (for example "send email" ' +
      `or "weather forecast"); it answers with the names and descriptions of up to ${MAX_TOOL_SEARCH_RESULTS} ` +
      'matching tools, which you can call from then on. Search again with other words if none fits.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords for the tool you need' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
});

/**
 * The `search_tools` tool of one run: `search` hands back what a call found (the loop searched it when it took
 * what the call finds), or `undefined` for a call past the turn's {@link MAX_SEARCHES_PER_TURN}.
 *
 * @internal
 */
export function searchToolsTool(
  search: (
    call: ChatCompletionMessageToolCall,
    query: string,
  ) => ToolSearchHits | undefined | Promise<ToolSearchHits | undefined>,
  searchable: number,
): ToolDefinition<{ query: string }> {
  return {
    schema: SCHEMA,
    parseParams: parseQuery,
    execute: async ({ call, params }) => {
      const hits = await search(call, params.query);
      return { response: hits ? answerText(params.query, hits, searchable) : OVER_CAP_TEXT };
    },
  };
}

const OVER_CAP_TEXT =
  `Not searched: a turn runs at most ${MAX_SEARCHES_PER_TURN} searches, and this turn asked for more. ` +
  'Use what the first searches found, or search again in your next turn.';

/**
 * The arguments of a `search_tools` call: an object with a string `query`.
 *
 * @internal
 */
export function parseQuery(raw: string): ToolParseResult<{ query: string }> {
  const parsed = safeParseJsonArgs(raw);
  if (!parsed.success) return parsed;
  const query = (parsed.data as { query?: unknown } | undefined)?.query;
  if (typeof query === 'string') return { success: true, data: { query } };
  return {
    success: false,
    errorMessage: problemListText(`Invalid arguments for tool "${SEARCH_TOOLS_NAME}":`, [
      query === undefined ? 'query: is required (a few words about the tool you need)' : 'query: must be a string',
    ]),
  };
}

function answerText(query: string, hits: ToolSearchHits, searchable: number): string {
  if (!hits.terms.length) {
    return `The query has no words to search for. Describe the tool you need in a few words (for example "send email"); ${searchable} tools can be found this way.`;
  }
  if (!hits.tools.length) {
    return modelSafeText(
      `No tool matches "${oneLine(query, MAX_QUOTED_QUERY_CHARS)}". Try other words (what the tool does, or a part of its name).`,
    );
  }
  // Names and descriptions are the tools' own, sent with their schemas anyway: kept as they are, on one line each.
  const lines = hits.tools.map((tool) => {
    const name = toolNameOf(tool.schema);
    const description = toolDescriptionOf(tool.schema);
    return description ? `- ${name}: ${oneLine(description, MAX_ANSWER_DESCRIPTION_CHARS)}` : `- ${name}`;
  });
  return [
    `Found ${hits.tools.length} tool${hits.tools.length === 1 ? '' : 's'}; you can call ${hits.tools.length === 1 ? 'it' : 'them'} from now on:`,
    ...lines,
  ].join('\n');
}

/** The first `max` characters of `text` on one line; the cut comes first, so a huge text costs no more. */
function oneLine(text: string, max: number): string {
  const head = text
    .slice(0, max + 1)
    .trim()
    .replace(/\s+/g, ' ');
  return head.length > max ? `${head.slice(0, max - 1)}…` : head;
}
