/**
 * `agentcall/testing`: a scripted OpenAI-compatible server (chat completions and Responses) for testing tools
 * and agent loops against the real openai SDK over real HTTP.
 */
export { startScriptedServer } from './server';
export { ScriptedReplyError } from './errors';
export { recordedReply } from './recorded-reply';
export type {
  RecordedRequest,
  RecordedRequestBase,
  RecordedResponse,
  ScriptedAnnotation,
  ScriptedClientOptions,
  ScriptedFinishReason,
  ScriptedReply,
  ScriptedServer,
  ScriptedServerOptions,
  ScriptedSession,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptedUsage,
  ScriptedWire,
} from './types';
