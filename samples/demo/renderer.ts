import type { RunAgentCallProps, RunAgentResponse } from '../../src';

/** Where the demo writes. */
export type Output = { write(text: string): void };

/**
 * Renders a run in the terminal: reasoning dimmed, answer text as it streams, each tool call with its
 * arguments as they arrive, each result, and a usage summary at the end.
 */
export class TerminalRenderer {
  private line: 'text' | 'reasoning' | 'tool' | 'none' = 'none';
  toolCalls = 0;
  failedToolCalls = 0;
  /** Calls the user refused: shown as refused, not as failed. */
  refusedToolCalls = 0;

  constructor(
    private readonly out: Output,
    private readonly color: boolean,
  ) {}

  /** The hooks to spread into `runAgentLoop`. */
  hooks(): Pick<RunAgentCallProps, 'onReasoning' | 'onStreaming' | 'onToolCall' | 'onToolParam' | 'onAfterToolCall'> {
    return {
      onReasoning: ({ text }) => this.write('reasoning', this.dim(text), this.dim('(thinking) ')),
      onStreaming: ({ text }) => this.write('text', text),
      onToolCall: ({ call }) => {
        this.toolCalls++;
        this.endLine();
        this.out.write(`  ⚙ ${call.function.name} `);
        this.line = 'tool';
      },
      onToolParam: ({ argsDelta }) => this.out.write(this.dim(argsDelta)),
      onAfterToolCall: ({ call, response, outcome }) => {
        const refused = outcome === 'rejected';
        const failed = !refused && outcome !== 'ok';
        if (refused) this.refusedToolCalls++;
        if (failed) this.failedToolCalls++;
        this.endLine();
        const mark = refused ? '⊘' : failed ? '✗' : '✓';
        this.out.write(`  ${mark} ${call.function.name} → ${oneLine(response, 200)}\n`);
      },
    };
  }

  /** Print the closing summary of a run (turns and tokens over every resume, from its state). */
  summary(result: RunAgentResponse): void {
    this.endLine();
    const notes = [
      ...(this.failedToolCalls ? [`${this.failedToolCalls} failed`] : []),
      ...(this.refusedToolCalls ? [`${this.refusedToolCalls} refused`] : []),
    ];
    const { turn, usage } = result.state;
    this.out.write(
      `\n— ${result.stopReason} · ${turn} model turns · ${this.toolCalls} tool calls` +
        `${notes.length ? ` (${notes.join(', ')})` : ''} · ${usage.inputTokens} input / ${usage.outputTokens} output tokens\n`,
    );
  }

  /** Print one line of its own (a status or an error), ending any open line first. */
  note(text: string): void {
    this.endLine();
    this.out.write(`${text}\n`);
  }

  private write(kind: 'text' | 'reasoning', text: string, prefix = ''): void {
    if (this.line !== kind) {
      this.endLine();
      this.out.write(prefix);
      this.line = kind;
    }
    this.out.write(text);
  }

  private endLine(): void {
    if (this.line !== 'none') this.out.write('\n');
    this.line = 'none';
  }

  private dim(text: string): string {
    return this.color ? `\x1b[2m${text}\x1b[22m` : text;
  }
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
