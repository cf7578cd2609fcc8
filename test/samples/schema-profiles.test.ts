import { describeOmissions, toolsFor } from '../../samples/providers/schema-profiles';
import { runAgentLoop } from '../../src';
import { startScriptedServer } from '../../src/testing';

describe('samples/providers/schema-profiles', () => {
  it('lists what a profile leaves out of the sample schemas (the lines docs/providers.md shows)', () => {
    expect(describeOmissions('anthropic')).toEqual([
      'sum numbers: maxItems 1000 → at most 1000 items',
      'add_todo title: minLength 1 → at least 1 character',
      'add_todo title: maxLength 120 → at most 120 characters',
      'add_todo tags: maxItems 10 → at most 10 items',
    ]);
    expect(describeOmissions('openai')).toEqual([]);
  });

  it("sends the 'lenient' schemas, with the left-out rules in the descriptions, and still validates them", async () => {
    const server = await startScriptedServer({
      turns: [{ toolCalls: [{ name: 'add_todo', arguments: { title: 'x'.repeat(121) } }] }, { text: 'Too long.' }],
    });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'any', messages: [{ role: 'user', content: 'Add a long to-do' }] },
      tools: toolsFor('lenient'),
    });
    await server.close();
    const sent = JSON.stringify(server.requests[0].body.tools);
    expect(sent).not.toMatch(/additionalProperties|maxLength|maxItems|"pattern"|"format"/);
    expect(sent).toContain('"description":"What to do (at least 1 character, at most 120 characters)"');
    expect(result.completeMessages.find((message) => message.role === 'tool')?.content).toMatch(
      /^Invalid arguments for tool "add_todo":\ntitle: title must be shorter than or equal to 120 characters/,
    );
  });
});
