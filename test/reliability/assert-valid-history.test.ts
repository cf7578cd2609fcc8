import { assertValidHistory } from '../helpers/history';

// The validator is what the other reliability tests lean on, so it must actually refuse what OpenAI refuses.
const call = (id: string, name = 'f') => ({ id, type: 'function', function: { name, arguments: '{}' } });
const asst = (...ids: string[]) => ({ role: 'assistant', content: null, tool_calls: ids.map((id) => call(id)) });
const tool = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const user = { role: 'user', content: 'hi' };

describe('assertValidHistory', () => {
  it('accepts plain chat, tool turns answered in any order, and a repeated id in a later turn', () => {
    expect(() => assertValidHistory([user, { role: 'assistant', content: 'hello' }])).not.toThrow();
    expect(() =>
      assertValidHistory([user, asst('a', 'b'), tool('b'), tool('a'), { role: 'assistant', content: 'done' }]),
    ).not.toThrow();
    expect(() => assertValidHistory([user, asst('a'), tool('a'), asst('a'), tool('a')])).not.toThrow();
  });

  it.each([
    ['a call with no tool message', [user, asst('a', 'b'), tool('a'), user], /b got no tool message/],
    ['a call left open at the end', [user, asst('a')], /a got no tool message/],
    ['an orphan tool message', [user, tool('x')], /orphan tool message for x/],
    ['a tool message after a user message', [user, asst('a'), tool('a'), user, tool('a')], /orphan/],
    ['a tool message for an id not called', [user, asst('a'), tool('a'), tool('z')], /did not call/],
    ['two tool messages for one id', [user, asst('a', 'b'), tool('a'), tool('a')], /second tool message for a/],
    ['one id twice in one assistant message', [user, asst('a', 'a'), tool('a'), tool('a')], /appears twice/],
    ['an empty tool_calls array', [user, { role: 'assistant', content: 'x', tool_calls: [] }], /empty/],
    [
      'non-string arguments',
      [
        user,
        { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: {} } }] },
        tool('a'),
      ],
      /non-string arguments/,
    ],
    ['a tool message without content', [user, asst('a'), { role: 'tool', tool_call_id: 'a' }], /content is undefined/],
  ])('refuses %s', (_name, messages, reason) => {
    expect(() => assertValidHistory(messages as never)).toThrow(reason);
  });
});
