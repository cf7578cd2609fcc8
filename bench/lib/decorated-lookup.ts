import 'reflect-metadata';
import { IsOptional } from 'class-validator';
import { Param, Tool, toolsFrom } from '../../src';
import type { ToolDefinition } from '../../src/toolCall/type';
import { lookupText } from './lookup-tool';

class LookupTools {
  constructor(private readonly size: number) {}

  @Tool({ name: 'lookup', description: 'Look a key up' })
  lookup(@Param('key') key: string, @Param('slot', { optional: true }, IsOptional()) _slot?: number): string {
    return lookupText(key, this.size);
  }
}

/** The lookup tool built from a decorated class: schema, class-validator parsing and return mapping included. */
export function decoratedLookupTools(size: number): ToolDefinition[] {
  return toolsFrom(new LookupTools(size));
}
