import type { ToolDefinition } from '../../src/toolCall/type';
import { lookupDefinition } from './lookup-tool';

/** The lookup tool built from a decorated class (falls back to hand-written until the decorators land). */
export function decoratedLookupTools(size: number): ToolDefinition[] {
  return [lookupDefinition(size)];
}
