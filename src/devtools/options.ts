import type { ModelPrice, RunSource } from './source';

/** Options of {@link startDevtools}. */
export type DevtoolsOptions = {
  /** Where runs come from: `createRunRecorder().source` or `bullmqRunSource(...)`. */
  source: RunSource;
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** The token of the URL (default: 24 random bytes, hex). */
  token?: string;
  /** Host names besides the loopback ones that the page may be served under (default none). */
  allowedHosts?: string[];
  /** Prices per million tokens, by model name, for the cost column. */
  pricing?: Record<string, ModelPrice>;
};

/** A running devtools page. */
export type Devtools = {
  /** The page's address, token included: open it in a browser. */
  url: string;
  /** Stop serving and close the source's connections. */
  close(): Promise<void>;
};
