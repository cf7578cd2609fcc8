/**
 * Jest setup file of the `sdk-stream` project: every `createLLMResponse` (and so every `runAgentLoop`) that does not
 * choose a stream parser itself uses the openai SDK's own iterator, so the existing tests also cover that path.
 */
import type * as Request from '../../src/llm/request';

const requestModule = require.resolve('../../src/llm/request');

jest.doMock(requestModule, () => {
  const actual = jest.requireActual<typeof Request>(requestModule);
  const createLLMResponse: typeof Request.createLLMResponse = (props) =>
    actual.createLLMResponse({ ...props, streamParser: props.streamParser ?? 'sdk' });
  return { ...actual, createLLMResponse };
});
