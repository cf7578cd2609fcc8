import { ResponseState } from '../../src/llm/response/response-state';
import { ResponsesReader } from '../../src/llm/wires/responses/response-reader';
import { ToolCallAccumulator } from '../../src/llm/response/tool-call-accumulator';
import type { ChatCompletionChunk } from '../../src/llm/type';
import { costRatio } from '../helpers/growth';

/**
 * 10× the input may cost at most this many times the CPU: about 10 when linear, about 100 when quadratic; the line sits
 * near their geometric middle, as the other growth checks do (a loaded CI machine read 20.8 for the linear reader).
 */
const LINEAR = 30;

/** The reader builds its errors with the client's class; these responses raise none. */
class Failure extends Error {}

/** A delta as a provider that sends no `index` (Gemini, older Ollama) sends it. */
type ToolCallDelta = NonNullable<ChatCompletionChunk['choices'][number]['delta']['tool_calls']>[number];

describe('the wires read what a model endpoint sends in linear time', () => {
  it('Responses: reasoning items with ids', () => {
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 'reasoning', id: `rs_${i}`, summary: [] }));
    const read = (output: object[]) => {
      const state = new ResponseState({ body: { model: 'm', messages: [] }, maxResponseBytes: 1 << 30 }, false);
      new ResponsesReader(state, Failure).consume({ status: 'completed', output });
      return state.result().assistantMessage;
    };
    // A repeated id is still kept once.
    const state = new ResponseState({ body: { model: 'm', messages: [] } }, false);
    const twice = { type: 'reasoning', id: 'rs_1', summary: [] };
    const answer = { type: 'message', content: [{ type: 'output_text', text: 'ok' }] };
    new ResponsesReader(state, Failure).consume({ status: 'completed', output: [twice, { ...twice }, answer] });
    expect(state.result().assistantMessage?.reasoning_items).toHaveLength(1);

    const small = items(2_000);
    const large = items(20_000);
    expect(
      costRatio(
        () => read(large),
        () => read(small),
      ),
    ).toBeLessThan(LINEAR);
  });

  it('Chat: tool calls sent without an index, told apart by their ids', () => {
    const stream = (n: number) =>
      Array.from({ length: n }, (_, i): ToolCallDelta[][] => [
        [{ id: `c${i}`, function: { name: 'f', arguments: '{' } } as ToolCallDelta],
        [{ id: `c${i}`, function: { arguments: '}' } } as ToolCallDelta],
      ]).flat();
    const read = (deltas: ToolCallDelta[][]) => {
      const calls = new ToolCallAccumulator({});
      for (const delta of deltas) calls.push(delta);
      return calls.finish();
    };
    expect(read(stream(3)).map((call) => call.function.arguments)).toEqual(['{}', '{}', '{}']);
    // Small enough that every call object dies young on Node 20 to 24: from a few thousand calls on, their promotion
    // out of the young generation alone read 25 to 40x for this linear reader.
    const small = stream(200);
    const large = stream(2_000);
    // A scan per delta reads about 90x every time.
    expect(
      costRatio(
        () => read(large),
        () => read(small),
      ),
    ).toBeLessThan(LINEAR);
  });
});
