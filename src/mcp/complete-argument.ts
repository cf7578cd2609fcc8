import type { PromptOptions } from '../index';

// The completer of one argument, as `@Prompt` and `@Resource` take it.
type ArgumentCompleter = NonNullable<PromptOptions['complete']>[string];

/** The most values one completion answers with, as the MCP specification caps them. */
const MAX_COMPLETION_VALUES = 100;

/** How much of a typed value is looked at; the client controls it, so it is cut before any work. */
const MAX_COMPLETION_INPUT_CHARS = 1_000;

/** What `completion/complete` answers. */
export type CompletionAnswer = { completion: { values: string[]; total: number; hasMore: boolean } };

/**
 * Complete one argument from a completer (fixed values, filtered by prefix, or a function) or, failing that, the
 * `enum` of its field; an argument with neither completes to nothing.
 *
 * @internal
 */
export async function completeArgument(
  completer: ArgumentCompleter | undefined,
  enumValues: readonly unknown[] | undefined,
  value: string,
  context: { arguments: Readonly<Record<string, string>> },
): Promise<CompletionAnswer> {
  const typed = value.slice(0, MAX_COMPLETION_INPUT_CHARS);
  const candidates =
    typeof completer === 'function'
      ? await completer(typed, context)
      : (completer ?? enumValues?.filter((v): v is string => typeof v === 'string') ?? []).filter((v) =>
          v.startsWith(typed),
        );
  const values = candidates.filter((v): v is string => typeof v === 'string');
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: values.length,
      hasMore: values.length > MAX_COMPLETION_VALUES,
    },
  };
}
