import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The wire corpus under test/fixtures/wire, as its JSON files describe it. */
export const WIRE_DIR = join(__dirname, '../fixtures/wire');

export type WireTurn = { file: string; status?: number };

export type WireFixture = {
  name: string;
  stream: boolean;
  source: string[];
  note?: string;
  turns: WireTurn[];
  expect: {
    stopReason: 'completed' | 'error' | 'refusal';
    /** The refusal text the run ends with (`result.refusal`). */
    refusal?: string;
    /** The types of the output items the run kept besides text, reasoning and calls (`result.items`). */
    items?: string[];
    /** The urls of the `url_citation` annotations on the answer's assistant message. */
    citations?: string[];
    /** Text every tool message of the last request holds (why a call cut by a finish reason was not run). */
    toolMessagesInclude?: string;
    /** HTTP status of the failed request, for error fixtures. */
    status?: number;
    /**
     * Every call the tools receive, in order, across the run: a function call's parsed `arguments`, or a custom tool
     * call's raw `input`.
     */
    calls: ({ name: string; arguments: unknown } | { name: string; input: string })[];
    /** The id each call carries in the history, in order; `null` where agentcall must generate one. */
    ids?: (string | null)[];
    answer?: string;
    /** Everything `onReasoning` receives over the run, joined. */
    reasoning?: string;
    /** Fields the first assistant message carries back besides role, content and tool_calls. */
    assistantFields?: Record<string, unknown>;
    /** Fields each call of the first assistant message carries back besides id, type and function. */
    toolCallFields?: Record<string, unknown>[];
    /** `onRequestEnd` usage of each request. */
    usage?: { inputTokens: number; outputTokens: number }[];
  };
};

export type WireProvider = {
  dir: string;
  provider: string;
  /** The API the recordings speak: Chat Completions unless it says `responses`. */
  wire?: 'chat' | 'responses';
  endpoint: string;
  sources: string[];
  sends: string;
  toolCallId: { pattern: string; rule: string; source: string };
  assistantMessage: { accepts: string[]; source: string };
  toolCall: { accepts: string[] };
  fixtures: WireFixture[];
};

export type WireIndex = { generatedIdRule: { pattern: string }; providers: string[] };

/** The wire a provider's recordings are replayed on. */
export const wireOf = (provider: WireProvider): 'chat' | 'responses' => provider.wire ?? 'chat';

export function readWireIndex(): WireIndex {
  return JSON.parse(readFileSync(join(WIRE_DIR, 'index.json'), 'utf8')) as WireIndex;
}

export function readWireProviders(): WireProvider[] {
  return readWireIndex().providers.map((dir) => ({
    dir,
    ...(JSON.parse(readFileSync(join(WIRE_DIR, dir, 'provider.json'), 'utf8')) as Omit<WireProvider, 'dir'>),
  }));
}
