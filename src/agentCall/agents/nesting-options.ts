/** How the run's agents may nest. */
export type NestingOptions = {
  /**
   * How deep agents (`defineAgent`) may call agents: an agent call whose `agentPath` would be longer is answered with a
   * tool message saying so, and no agent starts (default 4).
   */
  maxAgentDepth?: number;
};
