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
  private buffer = '';

  /** Feed one content delta; returns the reasoning and answer text it releases (either may be ''). */
  push(delta: string): { reasoning: string; answer: string } {
    if (this.state === 'answer') return { reasoning: '', answer: delta };
    this.buffer += delta;
    if (this.state === 'start') {
      const lead = this.buffer.trimStart();
      if (lead.length < OPEN.length && OPEN.startsWith(lead)) return EMPTY;
      if (!lead.startsWith(OPEN)) {
        this.state = 'answer';
        return this.take('', this.buffer);
      }
      this.state = 'think';
      this.buffer = lead.slice(OPEN.length);
    }
    const end = this.buffer.indexOf(CLOSE);
    if (end !== -1) {
      this.state = 'answer';
      const reasoning = this.buffer.slice(0, end);
      return this.take(reasoning, this.buffer.slice(end + CLOSE.length).replace(/^\s+/, ''));
    }
    // Hold back a tail that could be the start of `</think>` split across chunks.
    const keep = partialSuffix(this.buffer, CLOSE);
    const reasoning = this.buffer.slice(0, this.buffer.length - keep);
    this.buffer = this.buffer.slice(this.buffer.length - keep);
    return { reasoning, answer: '' };
  }

  /** Release whatever is still held when the stream ends. */
  flush(): { reasoning: string; answer: string } {
    const rest = this.buffer;
    this.buffer = '';
    if (this.state === 'think') return { reasoning: rest, answer: '' };
    return { reasoning: '', answer: rest };
  }

  private take(reasoning: string, answer: string): { reasoning: string; answer: string } {
    this.buffer = '';
    return { reasoning, answer };
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

function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
