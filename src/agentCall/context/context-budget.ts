import {
  DEFAULT_COMPRESSION_THRESHOLD,
  DEFAULT_RESERVED_CONTEXT_SHARE,
  MAX_DEFAULT_RESERVED_TOKENS,
  MAX_TOOL_RESPONSE_CONTEXT_SHARE,
  MIN_TOOL_RESPONSE_TOKENS,
} from '../../constants';
import type { CompressionOptions } from './context-options';

/** Tokens kept free for the model's answer. */
export function reservedTokens(compression: CompressionOptions): number {
  return (
    compression.reservedTokens ??
    Math.min(MAX_DEFAULT_RESERVED_TOKENS, Math.floor(compression.maxContext * DEFAULT_RESERVED_CONTEXT_SHARE))
  );
}

/** History size (estimated tokens) above which the history is summarised before the next request. */
export function historyLimit(compression: CompressionOptions): number {
  return (
    (compression.maxContext - reservedTokens(compression)) * (compression.threshold ?? DEFAULT_COMPRESSION_THRESHOLD)
  );
}

/**
 * The most tokens one tool response may take, or undefined when nothing limits it: the explicit cap, and
 * with compression half the context or an equal share of what is still free among the turn's calls.
 */
export function toolResponseBudget({
  compression,
  maxToolResponseTokens,
  historyTokens,
  callCount,
}: {
  compression?: CompressionOptions;
  maxToolResponseTokens?: number;
  historyTokens: number;
  callCount: number;
}): number | undefined {
  let budget = maxToolResponseTokens ?? Infinity;
  if (compression) {
    const free = compression.maxContext - historyTokens - reservedTokens(compression);
    // A floor, so a nearly full context still leaves each response a readable minimum.
    budget = Math.min(
      budget,
      Math.floor(compression.maxContext * MAX_TOOL_RESPONSE_CONTEXT_SHARE),
      Math.max(MIN_TOOL_RESPONSE_TOKENS, Math.floor(free / callCount)),
    );
  }
  return budget === Infinity ? undefined : budget;
}
