// Compile-time checks of the client type (type-checked by `tsc --noEmit`, never run): the openai SDK's client,
// from its CommonJS and from its ESM declaration, is accepted where agentcall takes a client.
import type OpenAI from 'openai';
// The declaration an ESM project gets: its `#private` members make it a type unrelated to the CommonJS one.
import type { OpenAI as EsmOpenAI } from 'openai' with { 'resolution-mode': 'import' };
import type { LLMClient } from '../../src/llm/client';
import { runAgentLoop } from '../../src/run-agent-loop';

declare const esm: EsmOpenAI;
declare const cjs: OpenAI;

export const fromCjs: LLMClient = cjs;
export const fromEsm: LLMClient = esm;
export const run = runAgentLoop({ client: esm, body: { model: 'm', messages: [] }, tools: [] });

// @ts-expect-error the two declarations of the class itself never match: why agentcall does not ask for `OpenAI`
export const classToClass: OpenAI = esm;

// A client with chat completions only (a stand-in, an older SDK) still fits: `responses` is optional.
declare const chatOnly: { chat: OpenAI['chat'] };
export const fromChatOnly: LLMClient = chatOnly;
export const runChatOnly = runAgentLoop({
  client: chatOnly,
  wire: 'chat',
  body: { model: 'm', messages: [] },
  tools: [],
});
