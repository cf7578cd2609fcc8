/**
 * agentcall: LLM tools as decorated classes, and the loop that runs them.
 *
 * The core (`runTool`, the agent loop, `createLLMResponse`) knows no tool by name and never imports the
 * decorator layer (`runAgentLoop`, at the door `src/run-agent-loop.ts`, reads a typed `output` class above the loop); NestJS lives in
 * `agentcall/nestjs`, the scripted test server in `agentcall/testing`.
 */
export { Tool } from './decorators/tool.decorator';
export { Param } from './decorators/param.decorator';
export { Ctx } from './decorators/ctx.decorator';
export { Agent } from './decorators/agent.decorator';
export type { AgentDecoratorOptions } from './metadata/agent-metadata';
export { Resource } from './decorators/resource.decorator';
export { Prompt } from './decorators/prompt.decorator';
export type { PromptOptions, ResourceOptions } from './metadata/options';
export type { ClassType, ParamOptions, ToolOptions, TypeSpec } from './metadata/options';
export { toolsFrom } from './definitions/tools-from';
export type { ToolsFromOptions } from './definitions/tools-from';
export type { SchemaProfile } from './definitions/profiles/schema-profile';
export type { JsonSchema } from './definitions/schema/json-schema';
export { schemaReport } from './definitions/profiles/schema-report';
export { definitionWarnings } from './definitions/definition-warnings';
export { standardSchemaOf } from './definitions/standard/standard-schema-of';
export type {
  AgentcallStandardSchema,
  StandardSchemaIssue,
  StandardSchemaResult,
} from './definitions/standard/standard-schema.types';
export { toolResult } from './definitions/results/tool-result';
export type { ToolResult } from './definitions/results/tool-result';
export {
  AgentcallError,
  DuplicateToolNameError,
  EmptyModelResponseError,
  InvalidBudgetError,
  InvalidFallbackError,
  InvalidRunStateError,
  InvalidWireError,
  MalformedResponseError,
  MissingCredentialsError,
  MissingPriceError,
  ModelConnectionError,
  OutputSchemaError,
  OutputValidationError,
  ResponsesWireRequiredError,
  RunAbortedError,
  RunStateSignatureError,
  RunStateVersionError,
  RunTimeoutError,
  ResponseTooLargeError,
  StreamIdleTimeoutError,
  ToolCallRejectedError,
  ToolDefinitionError,
  ToolTimeoutError,
  UnsupportedToolCallError,
  UnsupportedWireFieldError,
} from './errors';
export type { ToolDefinitionProblem } from './errors';

export { runAgentLoop } from './run-agent-loop';
export { defineAgent } from './output/define-agent';
export type { AgentOptions } from './output/define-agent';
export type { AgentRunOptions } from './agentCall/agents/agent-spec';
export type { OutputSpec, OutputStandardSchema } from './agentCall/state/output-types';
export type { Decision, PendingCall, RunState } from './agentCall/state/run-state';
export type { ModelPrice, RunBudget } from './agentCall/state/budget-types';
export type { FallbackEntry } from './agentCall/fallback/fallback-entry';
export { createMemoryJournal } from './toolCall/journal';
export type { MemoryJournal, ToolJournal } from './toolCall/journal';
export type {
  AfterToolCallEvent,
  AgentStopReason,
  ChildrenInteractiveParams,
  CompressContextEvent,
  CompressionOptions,
  AgentTracer,
  RequestEndEvent,
  RunAgentCallProps,
  RunAgentResponse,
  ToolCompressEvent,
  ToolProgressEvent,
} from './agentCall/type';

export { runTool } from './toolCall/run-tool';
export type { RunToolProps } from './toolCall/run-tool';
export { parseJsonArgs, safeParseJsonArgs } from './toolCall/parse-json-args';
export { getErrText } from './text/error-text';
export type {
  ToolApprovalContext,
  ToolDefinition,
  ToolExecuteContext,
  ToolExecuteResult,
  ToolOutcome,
  ToolParseResult,
  RunToolResult,
} from './toolCall/type';

export { createLLMResponse } from './llm/request';
export type { CreateLLMResponseProps, LLMRequestBody, LLMResponse, ResponseEvents } from './llm/request';
export type { ToolParamEvent } from './llm/response/response-types';
export type { LLMClient } from './llm/client';
export type { Wire } from './llm/wires/wire';
export type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam, UsageItem } from './llm/type';
