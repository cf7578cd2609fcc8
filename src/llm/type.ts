import type {
  ChatCompletionAssistantMessageParam as OpenAIAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';

// A function tool call as the model sends it, and a function tool schema as the model sees it: openai 6 widened
// `ChatCompletionMessageToolCall` and `ChatCompletionTool` to unions with `custom` ones; agentcall only runs
// function tools, so the seed's names stand for the openai SDK's function variants (users name them from openai).
export type {
  ChatCompletionMessageFunctionToolCall as ChatCompletionMessageToolCall,
  ChatCompletionFunctionTool as ChatCompletionTool,
} from 'openai/resources/chat/completions';

// A custom tool (free-form text input, optionally a grammar) and its call, as openai names them: a `ToolDefinition`
// may have one as its `schema`, and the history keeps its calls in this shape.
export type { ChatCompletionCustomTool, ChatCompletionMessageCustomToolCall } from 'openai/resources/chat/completions';

/**
 * An assistant message as agentcall writes it into the history: the openai type plus the reasoning fields
 * OpenAI-compatible endpoints send, kept in the field they came in so the endpoint reads them back.
 */
export type ChatCompletionAssistantMessageParam = OpenAIAssistantMessageParam & {
  /** DeepSeek, llama.cpp, vLLM before 0.11. */
  reasoning_content?: string;
  /** vLLM, Ollama, Groq, OpenRouter. */
  reasoning?: string;
  /** OpenRouter's reasoning entries (signed or encrypted reasoning it wants back), as received. */
  reasoning_details?: Record<string, unknown>[];
  /**
   * The Responses wire's reasoning items that came with this message, in order, as received (plain JSON, so they
   * survive a saved `RunState`). The Responses wire sends them back before the message on every later request;
   * the chat wire never sends them.
   */
  reasoning_items?: {
    type: 'reasoning';
    /** The item's id (absent only when the server sent none). */
    id?: string;
    summary: { type: 'summary_text'; text: string }[];
    /** Absent when the server sent none (a server that does not encrypt reasoning). */
    encrypted_content?: string | null;
    /** The reasoning text itself, when the server sends it (Open Responses servers). */
    content?: { type: 'reasoning_text'; text: string }[];
  }[];
  /**
   * The Responses wire's other output items that came with this message (a hosted tool's `web_search_call`, an
   * `mcp_call`, a `compaction`, an echoed `function_call_output`, a type not known yet), in output order, as
   * received, with the message's reasoning items among them (then not in `reasoning_items`). The Responses wire
   * sends them back in this order, before the message's text and calls; the chat wire never sends them.
   */
  output_items?: ({ type: string; id?: string } & Record<string, unknown>)[];
  /** The citations of the message's text (`url_citation`), as chat sends them; never sent back. */
  annotations?: ChatCompletionMessage.Annotation[];
};

/** A Responses output item agentcall keeps without reading it: plain JSON, as the model returned it. */
export type OutputItem = NonNullable<ChatCompletionAssistantMessageParam['output_items']>[number];

/**
 * One reasoning item of the Responses API, as the model returned it: its id, its summary, and (with
 * `store: false`) the `encrypted_content` the model needs back to go on reasoning where it stopped.
 */
export type ReasoningItem = NonNullable<ChatCompletionAssistantMessageParam['reasoning_items']>[number];

/** Why a model turn ended: the provider's value, `close` when the run was aborted, `error` when the request failed. */
export type CompletionFinishReason = ChatCompletionChunk.Choice['finish_reason'] | 'close' | 'error';

/**
 * One billable item. The loop pushes one per model request (`moduleName: 'agent_call'`), one per
 * compression request, and whatever tools return in `usages`.
 */
export type UsageItem = {
  moduleName: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** Of `inputTokens`, those read from the provider's prompt cache (when it reports them). */
  cachedTokens?: number;
  /** Of `outputTokens`, those spent reasoning (when the provider reports them). */
  reasoningTokens?: number;
  totalPoints?: number;
  /** For a request an agent (`defineAgent`) made: the call ids from the root run to that agent. */
  agentPath?: string[];
};

export type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
  ChatCompletionToolMessageParam,
};
