import { ResponseTooLargeError } from '../../src/errors/response-too-large.error';
import { createLLMResponse } from '../../src/llm/request';
import { startScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

describe('response size caps', () => {
  it('cuts a stream off past maxResponseBytes', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'x'.repeat(200_000) }], chunkSize: 100 });
    try {
      const res = await createLLMResponse({
        client: server.client(),
        body: { model: 'm', messages: [user('hi')] },
        maxResponseBytes: 20_000,
      });
      expect(res.error).toBeInstanceOf(ResponseTooLargeError);
      expect((res.error as Error).message).toBe('The model response exceeds the limit of 20000 bytes');
      expect(res.finish_reason).toBe('error');
      // The cap counts the text kept, not the envelopes: everything up to it arrives.
      expect(res.answerText).toBe('x'.repeat(20_000));
    } finally {
      await server.close();
    }
  });

  it('cuts a stream off at an SSE line longer than maxSseLineBytes', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'y'.repeat(50_000), chunkSize: 50_000 }] });
    try {
      const res = await createLLMResponse({
        client: server.client(),
        body: { model: 'm', messages: [user('hi')] },
        maxSseLineBytes: 10_000,
      });
      expect(res.error).toBeInstanceOf(ResponseTooLargeError);
      expect(res.answerText).toBe('');
    } finally {
      await server.close();
    }
  });

  it('caps a non-streamed response too', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'z'.repeat(100_000) }] });
    try {
      const res = await createLLMResponse({
        client: server.client(),
        body: { model: 'm', messages: [user('hi')], stream: false },
        maxResponseBytes: 10_000,
      });
      expect(res.error).toBeInstanceOf(ResponseTooLargeError);
    } finally {
      await server.close();
    }
  });

  it('lets a response within the caps through unchanged', async () => {
    const server = await startScriptedServer({ turns: [{ text: 'w'.repeat(5_000) }] });
    try {
      const res = await createLLMResponse({
        client: server.client(),
        body: { model: 'm', messages: [user('hi')] },
        maxResponseBytes: 1_000_000,
        maxSseLineBytes: 1_000,
      });
      expect(res.error).toBeUndefined();
      expect(res.answerText).toBe('w'.repeat(5_000));
    } finally {
      await server.close();
    }
  });
});
