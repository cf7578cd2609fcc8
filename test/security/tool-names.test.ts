import 'reflect-metadata';
import fc from 'fast-check';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import { ToolDefinitionError } from '../../src/errors';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { runTool } from '../../src/toolCall/run-tool';

// Written out here rather than imported, so a change to the library's pattern cannot pass unnoticed.
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A fresh class whose one `@Tool` carries `name`: metadata is per class, so every name gets its own. */
function classWithToolNamed(name: string) {
  class Dynamic {
    run() {
      return 'ran';
    }
  }
  Tool({ name, description: 'dynamic' })(
    Dynamic.prototype,
    'run',
    Object.getOwnPropertyDescriptor(Dynamic.prototype, 'run')!,
  );
  return Dynamic;
}

const call = (name: string): ChatCompletionMessageToolCall => ({
  id: 'c',
  type: 'function',
  function: { name, arguments: '{}' },
});

describe('tool names are checked when the tools are built, before any model sees them', () => {
  it('toolsFrom accepts a name exactly when it matches ^[a-zA-Z0-9_-]{1,64}$ (property-based)', () => {
    const nameArb = fc.oneof(
      fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/),
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 10 }),
      fc.stringMatching(/^[a-zA-Z0-9_-]{60,70}$/),
      fc
        .stringMatching(/^[a-zA-Z0-9_-]{1,10}$/)
        .chain((base) =>
          fc.constantFrom(`${base}\n`, ` ${base}`, `${base}.v2`, `${base}/x`, `${base}é`, `${base}\u0000`),
        ),
    );
    fc.assert(
      fc.property(nameArb, (name) => {
        const Tools = classWithToolNamed(name);
        if (OPENAI_NAME.test(name)) {
          expect(toolsFrom(new Tools()).map((t) => t.schema.function.name)).toEqual([name]);
          return;
        }
        let error: unknown;
        try {
          toolsFrom(new Tools());
        } catch (caught) {
          error = caught;
        }
        expect(ToolDefinitionError.isInstance(error)).toBe(true);
        expect((error as ToolDefinitionError).problems).toEqual([
          {
            className: 'Dynamic',
            methodName: 'run',
            message: expect.stringContaining(`tool name "${name}" is invalid`),
          },
        ]);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses a method name that is not a valid tool name, listing every bad tool in one error', () => {
    class Weather {
      @Tool({ description: 'ok' })
      get_weather(@Param('city') city: string) {
        return city;
      }

      @Tool({ description: 'a computed method name with a space' })
      ['get forecast'](@Param('city') city: string) {
        return city;
      }

      @Tool({ name: 'x'.repeat(65), description: 'too long' })
      long() {
        return '';
      }
    }
    let error: unknown;
    try {
      toolsFrom(new Weather());
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).problems.map((p) => [p.methodName, p.message])).toEqual([
      ['get forecast', `tool name "get forecast" is invalid; it must match ${OPENAI_NAME}`],
      ['long', `tool name "${'x'.repeat(65)}" is invalid; it must match ${OPENAI_NAME}`],
    ]);
  });

  it('finds tools by name through a map: a model calling __proto__, constructor or toString reaches nothing', async () => {
    const tools = toolsFrom(new (classWithToolNamed('real_tool'))());
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      expect(await runTool({ call: call(name), messages: [], tools })).toEqual({
        response: `Call tool not found: ${name}`,
        outcome: 'not_found',
      });
    }
    // Names that are valid for OpenAI but special in JavaScript work like any other name.
    const special = toolsFrom(new (classWithToolNamed('__proto__'))(), new (classWithToolNamed('constructor'))());
    expect(await runTool({ call: call('__proto__'), messages: [], tools: special })).toEqual({
      response: 'ran',
      outcome: 'ok',
    });
    expect(await runTool({ call: call('constructor'), messages: [], tools: special })).toEqual({
      response: 'ran',
      outcome: 'ok',
    });
  });
});
