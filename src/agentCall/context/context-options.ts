/** History compression: summarise old turns once the history nears the model's context window. */
export type CompressionOptions = {
  /** The model's context window, in tokens. */
  maxContext: number;
  /** Fraction of `maxContext` (after `reservedTokens`) that triggers compression; default 0.8. */
  threshold?: number;
  /** Tokens kept free for the model's answer; default min(8000, maxContext / 4). */
  reservedTokens?: number;
  /** Model used for the summaries; default `body.model`. */
  model?: string;
};

/** The run's options for its context window: history compression and the tool-response cap. */
export type ContextOptions = {
  /** Summarise history and shorten large tool responses against the model's context window (off by default). */
  compression?: CompressionOptions;
  /** Cap every tool response at this many tokens, keeping its head and tail (off by default). */
  maxToolResponseTokens?: number;
};
