import { estimateTokens } from '../../src/internal';
import { estimateMessageTokens, estimateMessagesTokens } from '../../src/llm/tokens';
import type { ChatCompletionMessageParam } from '../../src';

describe('estimateTokens: one name for text, a message and a history', () => {
  const history: ChatCompletionMessageParam[] = [
    { role: 'user', content: 'What is the weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '18 °C, sunny' },
  ];

  it('counts ~4 ASCII characters or one other character per token', () => {
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens(undefined)).toBe(0);
  });

  it('gives a message and a history what the loop counts for them', () => {
    expect(estimateTokens(history[1])).toBe(estimateMessageTokens(history[1]));
    expect(estimateTokens(history)).toBe(estimateMessagesTokens(history));
    expect(estimateTokens(history)).toBe(history.reduce((sum, message) => sum + estimateTokens(message), 0));
    expect(estimateTokens([])).toBe(0);
  });
});
