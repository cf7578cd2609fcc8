/** Where a run stands, as the page shows it. */
export type DevtoolsRunStatus = 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/** One line of the run list. */
export type RunSummary = {
  runId: string;
  status: DevtoolsRunStatus;
  model?: string;
  /** Model requests so far. */
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** In the currency of `pricing`; absent without a price for the model. */
  cost?: number;
  /** Epoch milliseconds of the first thing seen of the run. */
  startedAt: number;
  /** Epoch milliseconds of the last thing seen of the run. */
  updatedAt: number;
  stopReason?: string;
  /** Tool calls so far. */
  toolCalls: number;
  /** The names of the tools the run called (its agents' included), each once, at most 50. */
  tools?: string[];
  /** What was asked, for a run no worker has taken yet (its first user message, cut). */
  input?: string;
};

/** A text that may have been cut for the page: `length` is the whole text's, `text` its first part. */
export type ShownText = { text: string; length: number };

/** One model request of a run. */
export type RequestItem = {
  kind: 'request';
  /** Position in the run's timeline. */
  index: number;
  model?: string;
  startedAt: number;
  /** Milliseconds to the first streamed chunk. */
  firstChunkMs?: number;
  /** Milliseconds from sending the request to its end; absent while it streams, or when the source cannot know. */
  durationMs?: number;
  /** Whether the request is still streaming. */
  live: boolean;
  inputTokens?: number;
  outputTokens?: number;
  finishReason?: string;
  text: ShownText;
  reasoning: ShownText;
  error?: string;
  /** Whether the source saw the request's body: the page can then show the request and response. */
  hasExchange: boolean;
  /** Epoch milliseconds of the last thing seen of the request (its end, once it ended). */
  endedAt?: number;
  /** For a request of an agent's run (`defineAgent`): the call ids from the root run to that agent. */
  agentPath?: string[];
};

/**
 * One model request as sent and its response: the system (and developer) messages, the tool schemas, the whole
 * body, and the response as the run assembled it from the stream. What a model or a tool wrote is in it, so the page
 * shows it only as text.
 */
export type RequestExchange = {
  system: unknown[];
  tools: unknown[];
  body: unknown;
  response: unknown;
};

/** One tool call of a run. */
export type ToolItem = {
  kind: 'tool';
  index: number;
  callId: string;
  name: string;
  arguments: ShownText;
  startedAt: number;
  /** How the call ended (absent while it runs, or when the source does not know). */
  outcome?: string;
  /** The call waited for a person's decision (it did not run while it waited). */
  waited?: boolean;
  durationMs?: number;
  /** The tool's own text. */
  response?: ShownText;
  /** What the model read, when it differs from `response` (shortened to fit the budget). */
  modelResponse?: ShownText;
  /** Epoch milliseconds when its work started (its tool, or its answer); absent when the source does not see it. */
  ranAt?: number;
  /** Epoch milliseconds when it had its result. */
  endedAt?: number;
  /** For a call of an agent's run (`defineAgent`): the call ids from the root run to that agent. */
  agentPath?: string[];
};

/** A change of status: a pause, a resume, a worker taking the run, a retry. */
export type StatusItem = {
  kind: 'status';
  index: number;
  at: number;
  status: DevtoolsRunStatus;
  stopReason?: string;
  attempt?: number;
};

/** One entry of a run's timeline. */
export type TimelineItem = RequestItem | ToolItem | StatusItem;

/** A call waiting for a person. */
export type PendingView = {
  callId: string;
  /** What a decision for it is keyed by: `[...agentPath, callId].join('/')` (the call id, for the run's own). */
  key: string;
  /** For a call of an agent's run: the call ids from the root run to that agent. */
  agentPath?: string[];
  /** The name of the agent that made the call (the tool its parent called), for a call of an agent's run. */
  agent?: string;
  name: string;
  /** `approval`: a call to a tool that needs approval; `interactive`: a tool that paused the run. */
  kind: 'approval' | 'interactive';
  arguments: string;
  /** What the page decided for it, while other calls of the pause are still undecided. */
  decided?: 'approved' | 'rejected';
};

/** One page of a run: its summary, a slice of its timeline, and what waits for a person. */
export type RunPage = {
  summary: RunSummary;
  /** Entries of the whole timeline. */
  total: number;
  offset: number;
  items: TimelineItem[];
  pending: PendingView[];
  text?: string;
  error?: string;
  /** Whether the page may approve, reject and cancel. */
  canDecide: boolean;
  canCancel: boolean;
};
