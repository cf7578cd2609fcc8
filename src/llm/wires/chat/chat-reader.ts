import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { toModelText } from '../../../text/model-text';
import { describeDropped, isCustomCall, isFunctionCall } from '../../response/function-calls';
import { reasoningDetailsOf, reasoningOf, usageOf } from '../../response/provider-fields';
import type { ResponseState } from '../../response/response-state';
import { splitThinkTags } from '../../response/think-tags';
import { readUsage } from '../../response/usage';
import type { WireReceiver } from '../wire';

/**
 * Reads the Chat Completions wire into a {@link ResponseState}: parsed stream chunks through {@link receive},
 * whatever way the stream reader obtains them, a whole completion through {@link consume}.
 *
 * @internal
 */
export class ChatReader implements WireReceiver<ChatCompletionChunk> {
  constructor(private readonly state: ResponseState) {}

  /** See {@link ResponseState.progress}. */
  get progress(): number {
    return this.state.progress;
  }

  /**
   * Handles one parsed stream chunk. False when `isAborted` said stop: the chunk is dropped, the finish reason is
   * `'close'`, and the reader must end the request.
   */
  receive(chunk: ChatCompletionChunk): boolean {
    const state = this.state;
    if (!state.arrived()) return false;
    state.noteRequestId(chunk.id);
    const usage = usageOf(chunk);
    if (usage) state.noteUsage(readUsage(usage));
    const choice = chunk.choices?.[0];
    if (!choice) return true;
    // Azure's late content-filter annotations come as a choice without a delta.
    const delta = choice.delta as ChatCompletionChunk.Choice.Delta | undefined;
    if (delta) {
      this.readReasoningFields(delta);
      if (delta.content) state.addContent(delta.content);
      if (delta.refusal) state.addRefusal(delta.refusal);
      const { annotations } = delta as { annotations?: unknown };
      if (annotations) state.addAnnotations(annotations);
      if (delta.tool_calls) state.pushToolCalls(delta.tool_calls);
    }
    if (choice.finish_reason) state.noteFinish(choice.finish_reason);
    return true;
  }

  /** The stream ended normally: releases text the `<think>` splitter still holds. */
  endStream(): void {
    this.state.endStream();
  }

  /** A whole (non-streamed) completion. */
  consume(completion: ChatCompletion): void {
    const state = this.state;
    state.noteRequestId(completion.id);
    const usage = usageOf(completion);
    if (usage) state.noteUsage(readUsage(usage));
    const choice = completion.choices?.[0];
    if (!choice) return;
    const message = choice.message;
    const { reasoning, answer } = splitThinkTags(message.content ?? '');
    this.readReasoningFields(message);
    if (reasoning) state.addReasoning(reasoning);
    if (answer) state.addAnswer(answer);
    if (message.refusal) state.addRefusal(message.refusal);
    if (message.annotations) state.addAnnotations(message.annotations);
    // Some OpenAI-compatible servers leave out `type`: a call with a `function` is a function call all the same.
    let index = 0;
    for (const call of (message.tool_calls ?? []) as unknown[]) {
      if (isFunctionCall(call))
        state.pushToolCalls([
          {
            // A provider's own fields on the call (Gemini's extra_content) go along; `index` is the position here.
            ...call,
            index: index++,
            id: call.id,
            type: 'function',
            // Some OpenAI-compatible servers send non-streamed arguments as an object instead of JSON text.
            function: { name: call.function.name, arguments: toModelText(call.function.arguments) },
          },
        ]);
      // A custom tool call is read as a streamed one would be: its input is the raw text the tool gets.
      else if (isCustomCall(call)) state.pushToolCalls([{ ...call, index: index++ }]);
      else state.drop(describeDropped(call));
    }
    state.noteFinish(choice.finish_reason);
  }

  /** Reasoning in a field of a delta or message, and OpenRouter's `reasoning_details`. */
  private readReasoningFields(part: object): void {
    const found = reasoningOf(part);
    if (found) this.state.addReasoningField(found.field, found.text);
    const details = reasoningDetailsOf(part);
    if (details?.length) this.state.addReasoningDetails(details);
  }
}
