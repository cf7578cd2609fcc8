import type { ToolDefinition } from '../index';

/** Options of {@link createMcpServer}. */
export type McpServerOptions = {
  /** The server name hosts show (`serverInfo.name`). */
  name: string;
  /** The server version (`serverInfo.version`). */
  version: string;
  /** Text hosts may add to the model's instructions. */
  instructions?: string;
  /** Timeout for tools that set no `timeoutMs` of their own (the same as `runTool`'s `defaultTimeoutMs`). */
  defaultTimeoutMs?: number;
  /** Cap each result's text at about this many characters, keeping its head and tail. Default: no cap. */
  maxResponseChars?: number;
};

/** The tools to serve: a list, or a function read each time a server is created (a registry filled later). */
export type McpToolSource = readonly ToolDefinition[] | (() => readonly ToolDefinition[]);
