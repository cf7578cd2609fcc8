import type {
  ChatCompletionMessageToolCall,
  RunAgentCallProps,
  ToolDefinition,
  ToolExecuteContext,
  ToolExecuteResult,
} from '../index';
import type { EventBuffer } from './event-buffer';
import type { ModelTape } from './model-tape';
import type { RunStore } from './run-store';

type Hooks = Pick<RunAgentCallProps, 'onStreaming' | 'onReasoning' | 'onToolCall' | 'onAfterToolCall'>;

/**
 * One job's bridge between the loop and Redis: turns its hooks into run events, and runs its tools through the
 * journal. What a replayed (journaled) response or call produced was published by the attempt that first ran
 * it, so it is not published again.
 */
export class TurnRecorder {
  private calls: ChatCompletionMessageToolCall[] = [];
  private readonly replayedCalls = new Set<string>();
  /** Set when a journal write failed: the job must fail rather than run on without durability. */
  failure?: unknown;

  constructor(
    private readonly runId: string,
    private readonly store: RunStore,
    private readonly journal: ReadonlyMap<string, string>,
    private readonly tape: ModelTape,
    private readonly events: EventBuffer,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** The hooks to give `runAgentLoop`, each after the one `setup` gave, if any. */
  hooks(user: Hooks): Required<Hooks> {
    return {
      onStreaming: (e) => {
        user.onStreaming?.(e);
        if (!this.tape.replaying) this.events.push({ type: 'text', text: e.text });
      },
      onReasoning: (e) => {
        user.onReasoning?.(e);
        if (!this.tape.replaying) this.events.push({ type: 'reasoning', text: e.text });
      },
      onToolCall: (e) => {
        user.onToolCall?.(e);
        // Arguments are still streaming: the call is published once they are whole.
        this.calls.push(e.call);
      },
      onAfterToolCall: (e) => {
        user.onAfterToolCall?.(e);
        this.publishCalls();
        if (this.replayedCalls.has(e.call.id)) return;
        this.events.push({ type: 'tool_result', callId: e.call.id, name: e.call.function.name, response: e.response });
      },
    };
  }

  /** `tools`, each answering from the journal when its call already ran, and journaling what it returns. */
  tools(tools: ToolDefinition[]): ToolDefinition[] {
    return tools.map((tool) => ({ ...tool, execute: (ctx) => this.execute(tool, ctx) }));
  }

  private async execute(tool: ToolDefinition, ctx: ToolExecuteContext): Promise<ToolExecuteResult> {
    this.publishCalls();
    const saved = this.journal.get(`call:${ctx.call.id}`);
    if (saved !== undefined) {
      this.replayedCalls.add(ctx.call.id);
      return JSON.parse(saved) as ToolExecuteResult;
    }
    const result = await tool.execute(ctx);
    try {
      await this.store.journal(this.runId, ctx.call.id, result, this.tape.takeUnsaved(), this.events.take());
    } catch (error) {
      this.failure ??= error;
      this.onFailure(error);
    }
    return result;
  }

  /** Publish the calls the model made this turn, once their arguments are whole (tools run after the stream). */
  private publishCalls(): void {
    if (!this.calls.length) return;
    if (!this.tape.replaying) for (const call of this.calls) this.events.push({ type: 'tool_call', call });
    this.calls = [];
  }
}
