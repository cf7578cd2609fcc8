const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Splits streamed content of models that inline their reasoning as a leading `<think>…</think>` block
 * (DeepSeek-R1 and Qwen through Ollama or vLLM) into reasoning and answer deltas.
 *
 * Only a block at the very start counts, so an answer that merely mentions the tag is left alone. Once the
 * answer has begun, every delta passes straight through.
 */
export class ThinkTagSplitter {
  private state: 'start' | 'think' | 'answer' = 'start';
  /** While undecided: the leading whitespace seen so far, kept apart so nothing re-scans it. */
  private leading = '';
  /** While undecided: the text after the leading whitespace (shorter than `<think>` until it decides). */
  private lead = '';
  /** While thinking: a tail that may be the start of `</think>`. */
  private buffer = '';

  /** Feed one content delta; returns the reasoning and answer text it releases (either may be ''). Linear in the delta. */
  push(delta: string): { reasoning: string; answer: string } {
    if (this.state === 'answer') return { reasoning: '', answer: delta };
    if (this.state === 'start') {
      if (this.lead === '') {
        const first = delta.search(NON_SPACE);
        if (first === -1) {
          this.leading += delta;
          return EMPTY;
        }
        this.leading += delta.slice(0, first);
        this.lead = delta.slice(first);
      } else {
        this.lead += delta;
      }
      if (this.lead.length < OPEN.length && OPEN.startsWith(this.lead)) return EMPTY;
      if (!this.lead.startsWith(OPEN)) {
        this.state = 'answer';
        return { reasoning: '', answer: this.takeLeading() + this.takeLead() };
      }
      this.state = 'think';
      this.leading = '';
      this.buffer = this.takeLead().slice(OPEN.length);
    } else {
      this.buffer += delta;
    }
    const end = this.buffer.indexOf(CLOSE);
    if (end !== -1) {
      this.state = 'answer';
      const reasoning = this.buffer.slice(0, end);
      const answer = this.buffer.slice(end + CLOSE.length).replace(/^\s+/, '');
      this.buffer = '';
      return { reasoning, answer };
    }
    // Hold back a tail that could be the start of `</think>` split across chunks.
    const keep = partialSuffix(this.buffer, CLOSE);
    const reasoning = this.buffer.slice(0, this.buffer.length - keep);
    this.buffer = this.buffer.slice(this.buffer.length - keep);
    return { reasoning, answer: '' };
  }

  /** Release whatever is still held when the stream ends. */
  flush(): { reasoning: string; answer: string } {
    if (this.state === 'think') {
      const rest = this.buffer;
      this.buffer = '';
      return { reasoning: rest, answer: '' };
    }
    return { reasoning: '', answer: this.takeLeading() + this.takeLead() };
  }

  private takeLeading(): string {
    const text = this.leading;
    this.leading = '';
    return text;
  }

  private takeLead(): string {
    const text = this.lead;
    this.lead = '';
    return text;
  }
}

/** Split a complete (non-streamed) content string the same way. */
export function splitThinkTags(content: string): { reasoning: string; answer: string } {
  const splitter = new ThinkTagSplitter();
  const first = splitter.push(content);
  const rest = splitter.flush();
  return { reasoning: first.reasoning + rest.reasoning, answer: first.answer + rest.answer };
}

const EMPTY = { reasoning: '', answer: '' };
const NON_SPACE = /\S/;

function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
