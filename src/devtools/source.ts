import type { Decision, RunAgentCallProps } from '../index';
import type { RequestExchange, RunPage, RunSummary } from './types';

/** What the export needs of one model request: the reply the model gave. */
export type RecordedTurn = {
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason?: string;
  /** The request failed (or was cut by an abort or the run's timeout): it has no reply to give. */
  failed?: boolean;
  /** The tokens the request used, when known: a replay under a token budget needs them. */
  usage?: { inputTokens: number; outputTokens: number };
  /** The model's refusal, for a run that ended with `stopReason: 'refusal'`. */
  refusal?: string;
};

/** The props of the run that decide where it stops: a replay is given the same. */
export type RecordedLimits = Pick<
  RunAgentCallProps,
  'maxRunAgentTimes' | 'timeoutMs' | 'budget' | 'prices' | 'outputRetries'
>;

/** A run as the export reads it: model replies, tool results and decisions, in order. */
export type RecordedRun = {
  runId: string;
  model?: string;
  /** The run's first messages (the input), before any model reply. */
  input: unknown[];
  turns: RecordedTurn[];
  /** Each tool call's outcome and the text the tool gave, by call id. */
  results: Record<string, { name: string; outcome?: string; response: string }>;
  /** Each decision a person made, by call id. */
  decisions: Record<string, Decision>;
  /** Calls that waited for a person (decided or not). */
  waited?: string[];
  /** Calls whose tool ended the run (`stopReason: 'tool_stop'`). */
  stoppedBy?: string[];
  /** The run's limits, as its props gave them (the in-process recorder knows them; a queue's do not reach it). */
  limits?: RecordedLimits;
  /**
   * The run asked for a typed answer (`output`): a final answer is then checked, and one refused gets another request.
   * The in-process recorder knows it; a queue's props stay in its workers.
   */
  typedOutput?: boolean;
  stopReason?: string;
  text?: string;
};

/** Where the page reads runs from, and how it steers them. */
export interface RunSource {
  /** Runs, newest first. */
  list(): Promise<RunSummary[]>;
  /** One slice of a run's timeline, texts cut to `maxChars` (`offset` -1: the newest); `undefined` for an unknown run. */
  page(runId: string, options: { offset: number; limit: number; maxChars: number }): Promise<RunPage | undefined>;
  /** One whole text of a timeline entry (`field` of entry `index`); `undefined` when there is none. */
  fullText(runId: string, index: number, field: string): Promise<string | undefined>;
  /**
   * Request `index` of a run as sent, and its response; `undefined` when the source did not see it. Only the
   * in-process recorder sees request bodies: a queue's run stream does not carry them.
   */
  exchange?(runId: string, index: number): Promise<RequestExchange | undefined>;
  /** The run as the test export reads it. */
  recorded(runId: string): Promise<RecordedRun | undefined>;
  /** Be told when a run changed (`runId`) or the runs did (`undefined`); returns the unsubscribe. */
  subscribe(listener: (runId?: string) => void): () => void;
  /**
   * Decide pending calls of a waiting run: decisions gather until every pending call has one, and only then the run
   * goes on. Resolves with the calls still undecided.
   */
  decide?(runId: string, decisions: Record<string, Decision>): Promise<{ undecided: string[] }>;
  /** Cancel a running or waiting run. */
  cancel?(runId: string): Promise<void>;
  /** What keeps the source from reading runs now (Redis unreachable), for the page to show; `undefined` when fine. */
  problem?(): string | undefined;
  /** Stop whatever the source keeps open. */
  close?(): Promise<void>;
}

// The page prices runs with the core's own `ModelPrice` (the one a run's `budget` reads): one name for one idea.
export type { ModelPrice } from '../index';
