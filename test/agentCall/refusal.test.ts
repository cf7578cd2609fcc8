/**
 * A refusal is an outcome, never an empty answer: on either wire (this suite runs on both, and on both stream
 * parsers), streamed or not, it ends the run with `stopReason: 'refusal'`, its text in `result.refusal` and on the
 * assistant message kept in the history, and no `error`. With `output` it is not fed back as an invalid answer.
 */
import { runAgentLoop, type OutputStandardSchema } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

const REFUSAL = "I'm sorry, I can't help with that.";

const anything: OutputStandardSchema<unknown> = {
  '~standard': {
    version: 1,
    vendor: 'hand-made',
    validate: (value) => ({ value }),
    jsonSchema: { input: () => ({ type: 'object', properties: {}, additionalProperties: false }) },
  },
};

describe('a refusal ends the run as a refusal', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer({ chunkSize: 5 });
  });
  afterEach(() => server.close());

  it.each([true, false])('with its text, no error, the message kept (stream: %s)', async (stream) => {
    server.enqueue({ refusal: REFUSAL });
    const streamed: string[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'gpt-5.1', stream, messages: [user('Help me with something bad.')] },
      tools: [],
      onStreaming: ({ text }) => streamed.push(text),
    });
    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe('refusal');
    expect(result.refusal).toBe(REFUSAL);
    expect(result.text).toBe('');
    // The refusal is not the answer: nothing of it is streamed as answer text.
    expect(streamed).toEqual([]);
    expect(result.completeMessages.at(-1)).toMatchObject({ role: 'assistant', refusal: REFUSAL });
    expect(result.assistantMessages).toEqual([result.completeMessages.at(-1)]);
  });

  it.each([true, false])('with output, is not retried as an invalid answer (stream: %s)', async (stream) => {
    server.enqueue({ refusal: REFUSAL }, { text: '{}' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'gpt-5.1', stream, messages: [user('Fill the form.')] },
      tools: [],
      output: anything,
    });
    expect(result.stopReason).toBe('refusal');
    expect(result.error).toBeUndefined();
    expect(result.output).toBeUndefined();
    expect(result.refusal).toBe(REFUSAL);
    expect(server.requests).toHaveLength(1);
  });

  it('goes back to the model in the history of a later run', async () => {
    server.enqueue({ refusal: REFUSAL }, { text: 'Fine.' });
    const first = await runAgentLoop({
      client: server.client(),
      body: { model: 'gpt-5.1', messages: [user('Something bad.')] },
      tools: [],
    });
    await runAgentLoop({
      client: server.client(),
      body: { model: 'gpt-5.1', messages: [...first.completeMessages, user('Something else.')] },
      tools: [],
    });
    const sent = server.requests[1].body.messages[1] as { role: string; content?: unknown; refusal?: unknown };
    expect(sent.role).toBe('assistant');
    // Chat sends the message as it is; the Responses wire sends the refusal as the assistant's words.
    expect(sent.refusal ?? sent.content).toBe(REFUSAL);
  });
});
