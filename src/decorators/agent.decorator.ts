import 'reflect-metadata';
import type { AgentDecoratorOptions } from '../metadata/agent-metadata';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ClassRef } from '../metadata/options';

/**
 * Mark a class as an agent: `toolsFrom(new ResearchAgent())` gives its tool, which runs it as a nested run with
 * `instructions` as its system message and, as its tools, those of each class in `tools` (made with no arguments)
 * plus the class's own `@Tool` methods. Only records metadata; see `defineAgent` for everything else an agent can take.
 *
 * @example
 * @Agent({ name: 'research', description: 'Researches a topic', instructions: 'Cite sources.', tools: [SearchTools] })
 * class ResearchAgent {}
 */
export function Agent(options: AgentDecoratorOptions): ClassDecorator {
  return (target) => {
    getMetadataStorage().addAgent({ ...options, target: target as unknown as ClassRef });
  };
}
