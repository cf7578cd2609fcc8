import type { ClassRef, ClassType } from './options';

/** What `@Agent` takes: the agent's tool name, what the parent's model reads, its system message and tool classes. */
export type AgentDecoratorOptions = {
  /** The tool name the parent's model sees (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  description: string;
  /** The agent's system message. */
  instructions: string;
  /** Classes whose `@Tool` methods (or `@Agent`) are the agent's tools, each made with `new ToolClass()`. */
  tools?: ClassType[];
};

/** What `@Agent` records for one class. */
export type AgentMetadata = AgentDecoratorOptions & {
  /** The decorated class. */
  readonly target: ClassRef;
};
