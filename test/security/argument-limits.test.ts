import 'reflect-metadata';
import { Length } from 'class-validator';
import fc from 'fast-check';
import { runAgentLoop } from '../../src/run-agent-loop';
import { DEFAULT_MAX_ARGS_DEPTH, DEFAULT_MAX_ARGS_LENGTH } from '../../src/constants';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import { startScriptedServer } from '../../src/testing';
import { safeParseJsonArgs } from '../../src/toolCall/parse-json-args';
import { user } from '../helpers/tools';

/** Nesting depth of a parsed value: 0 for a scalar, 1 for a flat array or object. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Object.values(value as Record<string, unknown>);
  return 1 + (children.length ? Math.max(...children.map(depthOf)) : 0);
}

/** `{"a":"xxx…"}` exactly `length` characters long. */
const objectOfLength = (length: number) => `{"a":"${'x'.repeat(length - 8)}"}`;
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

class NoteTools {
  received: string[] = [];

  @Tool({ description: 'Save a note' })
  save(@Param('text', {}, Length(0, 2_000_000)) text: string) {
    this.received.push(text);
    return 'saved';
  }
}

describe('argument size and nesting caps', () => {
  it('accepts exactly the limits and refuses one past them, saying which limit and by how much', () => {
    expect(DEFAULT_MAX_ARGS_LENGTH).toBe(1_000_000);
    expect(DEFAULT_MAX_ARGS_DEPTH).toBe(64);
    expect(safeParseJsonArgs(objectOfLength(1_000_000))).toMatchObject({ success: true });
    expect(safeParseJsonArgs(objectOfLength(1_000_001))).toEqual({
      success: false,
      errorMessage: 'Invalid arguments: 1000001 characters exceeds the limit of 1000000',
    });
    expect(safeParseJsonArgs(nestedArrays(64))).toMatchObject({ success: true });
    expect(safeParseJsonArgs(nestedArrays(65))).toEqual({
      success: false,
      errorMessage: 'Invalid arguments: nesting deeper than 64 levels',
    });
    expect(safeParseJsonArgs(`{"a":${nestedArrays(3)}}`, { maxDepth: 3 })).toEqual({
      success: false,
      errorMessage: 'Invalid arguments: nesting deeper than 3 levels',
    });
  });

  it('counts brackets only outside strings, escaped quotes included', () => {
    const text = `{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}", 'b': '\\'[[[['}`;
    expect(safeParseJsonArgs(text, { maxDepth: 1 })).toEqual({
      success: true,
      data: { a: `${'['.repeat(100)}"${'{'.repeat(100)}`, b: "'[[[[" },
    });
  });

  it('refuses before parsing: a hostile size or depth never reaches the parser', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(safeParseJsonArgs('{"a":"' + 'x'.repeat(5_000_000) + '"}').success).toBe(false);
      expect(safeParseJsonArgs(nestedArrays(1_000_000)).success).toBe(false);
      expect(safeParseJsonArgs('{"a":' + '{"b":'.repeat(100_000)).success).toBe(false);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('never succeeds past its limits and always succeeds within them (property-based)', () => {
    fc.assert(
      // Arguments are an object (or, from a confused model, an array); a top-level JSON string such as "{!}" is
      // cut to its braces by the lenient reader, a documented parseJsonArgs behaviour that is not about the caps.
      fc.property(
        fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 5 })), fc.array(fc.jsonValue({ maxDepth: 5 }))),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 400 }),
        (value, maxDepth, maxLength) => {
          const text = JSON.stringify(value);
          const result = safeParseJsonArgs(text, { maxDepth, maxLength });
          const within = text.length <= maxLength && depthOf(value) <= maxDepth;
          expect(result.success).toBe(within);
          if (result.success) {
            expect(text.length).toBeLessThanOrEqual(maxLength);
            expect(depthOf(result.data)).toBeLessThanOrEqual(maxDepth);
          } else {
            expect(result.errorMessage).toMatch(
              /^Invalid arguments: (\d+ characters exceeds the limit of \d+|nesting deeper than \d+ levels)$/,
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('applies both caps to decorated tools: the tool never runs and the model reads why', async () => {
    const tooLong = JSON.stringify({ text: 'x'.repeat(1_000_000) });
    const tooDeep = `{"text":"t","extra":${nestedArrays(100_000)}}`;
    const server = await startScriptedServer({
      turns: [
        {
          toolCalls: [
            { id: 'long', name: 'save', arguments: tooLong },
            { id: 'deep', name: 'save', arguments: tooDeep },
            { id: 'fine', name: 'save', arguments: { text: 'short note' } },
          ],
        },
        { text: 'done' },
      ],
    });
    try {
      const instance = new NoteTools();
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: toolsFrom(instance),
      });
      expect(result.stopReason).toBe('completed');
      expect(instance.received).toEqual(['short note']);
      const sent = server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(sent).toEqual([
        `Invalid arguments for tool "save":\n${tooLong.length} characters exceeds the limit of 1000000`,
        'Invalid arguments for tool "save":\nnesting deeper than 64 levels',
        'saved',
      ]);
    } finally {
      await server.close();
    }
  });
});
