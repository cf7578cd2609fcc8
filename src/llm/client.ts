import OpenAI from 'openai';

/** The caller's own OpenAI-compatible account: used when no client is injected. */
export type UserKey = {
  /** Base URL of an OpenAI-compatible API, e.g. `http://localhost:11434/v1` for Ollama. */
  baseUrl?: string;
  /** API key; ignored by servers that need none. */
  key?: string;
};

/**
 * The client a request goes through: the injected one, else one built from `userKey`, else from
 * `OPENAI_API_KEY` / `OPENAI_BASE_URL`.
 */
export function resolveClient(client?: OpenAI, userKey?: UserKey): OpenAI {
  if (client) return client;
  return new OpenAI({
    apiKey: userKey?.key ?? process.env.OPENAI_API_KEY ?? '',
    baseURL: userKey?.baseUrl ?? process.env.OPENAI_BASE_URL ?? undefined,
  });
}
