import 'reflect-metadata';
import { IsObject } from 'class-validator';
import { Ctx } from '../../src/decorators/ctx.decorator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import { ToolDefinitionError, type ToolDefinitionProblem } from '../../src/errors/tool-definition.error';
import type { ToolExecuteContext } from '../../src/toolCall/type';

function problemsOf(build: () => unknown): readonly ToolDefinitionProblem[] {
  try {
    build();
  } catch (error) {
    if (ToolDefinitionError.isInstance(error)) return error.problems;
    throw error;
  }
  throw new Error('toolsFrom did not throw');
}

interface Filter {
  field: string;
}

describe('toolsFrom: definition problems', () => {
  it('an unknown profile name is a named definition problem, listing the profiles there are', () => {
    class Tools {
      @Tool()
      ping() {
        return 'pong';
      }
    }
    const options = { profile: 'gemni' } as unknown as Parameters<typeof toolsFrom>[1];
    expect(problemsOf(() => toolsFrom([new Tools()], options))).toEqual([
      {
        className: 'toolsFrom',
        message: 'unknown schema profile "gemni"; use one of openai, openai-strict, gemini, anthropic, lenient',
      },
    ]);
  });

  it('a parameter named like an Object.prototype member', () => {
    class Tools {
      @Tool()
      convert(@Param('toString') text: string, @Param('valueOf') value: number, @Param('amount') amount: number) {
        return `${text}${value}${amount}`;
      }
    }
    expect(problemsOf(() => toolsFrom(new Tools()))).toEqual(
      ['toString', 'valueOf'].map((name, parameterIndex) => ({
        className: 'Tools',
        methodName: 'convert',
        parameterIndex,
        message: `"${name}" cannot be a parameter name: it shadows Object.prototype.${name}`,
      })),
    );
  });

  it('a parameter without @Param or @Ctx', () => {
    class Tools {
      @Tool()
      greet(@Param('name') name: string, loud: boolean) {
        return loud ? name.toUpperCase() : name;
      }
    }
    expect(problemsOf(() => toolsFrom(new Tools()))).toEqual([
      {
        className: 'Tools',
        methodName: 'greet',
        parameterIndex: 1,
        message: 'has no @Param or @Ctx decorator; every parameter of a @Tool method needs one',
      },
    ]);
  });

  it('types that reflect as Object or Array without type: () => X', () => {
    class Tools {
      @Tool()
      find(@Param('id') id: string | number, @Param('filter') filter: Filter, @Param('tags') tags: string[]) {
        return [id, filter, tags];
      }
    }
    const asObject =
      'its type reflects as Object (a union, an interface or a type literal); give type: () => X or use a DTO class';
    expect(problemsOf(() => toolsFrom(new Tools()))).toEqual([
      { className: 'Tools', methodName: 'find', parameterIndex: 0, message: `parameter "id": ${asObject}` },
      { className: 'Tools', methodName: 'find', parameterIndex: 1, message: `parameter "filter": ${asObject}` },
      {
        className: 'Tools',
        methodName: 'find',
        parameterIndex: 2,
        message:
          'parameter "tags": the array item type is unknown; give type: () => [X] (or @IsString({ each: true }), @Type(() => X))',
      },
    ]);
  });

  it('DTO properties the builder cannot type, located in the DTO', () => {
    class Query {
      @Param() text!: string;
      @Param() when!: Date;
      @Param() scope!: 'all' | 1;
    }
    class Tools {
      @Tool()
      search(@Param() query: Query) {
        return query.text;
      }
    }
    expect(problemsOf(() => toolsFrom(new Tools())).map((p) => [p.parameterIndex, p.message])).toEqual([
      [
        0,
        'Query.when: type Date cannot be sent as JSON arguments; use string, number, boolean, an enum, a DTO class or an array',
      ],
      [
        0,
        'Query.scope: its type reflects as Object (a union, an interface or a type literal); give type: () => X or use a DTO class',
      ],
    ]);
  });

  it('@Param() without a name on a parameter that is not a DTO class, or mixed with named parameters', () => {
    class Dto {
      @Param() a!: string;
    }
    class Tools {
      @Tool()
      one(@Param() text: string) {
        return text;
      }

      @Tool()
      two(@Param() dto: Dto, @Param('extra') extra: string) {
        return [dto, extra];
      }
    }
    expect(problemsOf(() => toolsFrom(new Tools()))).toEqual([
      {
        className: 'Tools',
        methodName: 'one',
        parameterIndex: 0,
        message:
          "@Param() without a name needs a parameter typed by a DTO class, but its type is String; give the parameter a name (@Param('x')) or a class type",
      },
      {
        className: 'Tools',
        methodName: 'two',
        parameterIndex: 0,
        message:
          '@Param() without a name takes the whole arguments object, so the method cannot also have named @Param(name) parameters',
      },
    ]);
  });

  it('duplicate parameter names, forbidden names and two decorators on one parameter', () => {
    class Tools {
      @Tool()
      run(@Param('x') a: string, @Param('x') b: string, @Param('__proto__') c: string, @Ctx() @Param('d') d: string) {
        return [a, b, c, d];
      }
    }
    expect(problemsOf(() => toolsFrom(new Tools())).map((p) => [p.parameterIndex, p.message])).toEqual([
      [3, 'has more than one @Param / @Ctx decorator'],
      [1, 'duplicate parameter name "x"'],
      [2, '"__proto__" cannot be a parameter name'],
    ]);
  });

  it('invalid tool names, and duplicate names across all instances passed', () => {
    class Weather {
      @Tool({ name: 'get weather' })
      spaced() {
        return '';
      }

      @Tool({ name: 'lookup' })
      lookup() {
        return '';
      }
    }
    class Geo {
      @Tool()
      lookup() {
        return '';
      }
    }
    expect(problemsOf(() => toolsFrom(new Weather(), new Geo()))).toEqual([
      {
        className: 'Weather',
        methodName: 'spaced',
        message: 'tool name "get weather" is invalid; it must match /^[a-zA-Z0-9_-]{1,64}$/',
      },
      { className: 'Geo', methodName: 'lookup', message: 'duplicate tool name "lookup" (also used by Weather.lookup)' },
    ]);
  });

  it('fields strict mode cannot express, only when the tool is strict', () => {
    class Meta {
      @IsObject() labels!: Record<string, string>;
    }
    class Tools {
      @Tool()
      tag(@Param('meta') meta: Meta) {
        return meta;
      }
    }
    expect(() => toolsFrom(new Tools())).not.toThrow();
    expect(problemsOf(() => toolsFrom([new Tools()], { strict: true }))).toEqual([
      {
        className: 'Tools',
        methodName: 'tag',
        message:
          'field "meta.labels" is a free-form object (a Record or @IsObject()), which strict mode cannot express; give it a DTO class or set strict: false',
      },
    ]);
  });

  it('classes without tools, and classes passed instead of instances', () => {
    class Plain {}
    class Tools {
      @Tool()
      ping() {
        return 'pong';
      }
    }
    expect(problemsOf(() => toolsFrom(new Plain(), Tools))).toEqual([
      { className: 'Plain', message: 'has no @Tool methods' },
      { className: 'Tools', message: 'a class was passed where an instance is expected; pass new Tools(...)' },
    ]);
  });

  it('collects every problem of every class into one error message', () => {
    class A {
      @Tool({ name: 'a a' })
      a(x: string) {
        return x;
      }
    }
    class B {
      @Tool()
      b(@Param('when') when: Date) {
        return when;
      }
    }
    expect(() => toolsFrom(new A(), new B())).toThrow(
      [
        'Invalid tool definitions (3 problems):',
        '  - A.a: tool name "a a" is invalid; it must match /^[a-zA-Z0-9_-]{1,64}$/',
        '  - A.a, parameter index 0: has no @Param or @Ctx decorator; every parameter of a @Tool method needs one',
        '  - B.b, parameter index 0: parameter "when": type Date cannot be sent as JSON arguments; use string, number, boolean, an enum, a DTO class or an array',
      ].join('\n'),
    );
  });

  it('types TypeScript never emitted (esbuild, tsx, no emitDecoratorMetadata)', () => {
    class Tools {
      @Tool()
      greet(@Param('name') name: string, @Ctx() ctx: ToolExecuteContext) {
        return `${name}${ctx.call.id}`;
      }
    }
    // What a compiler without decorator metadata leaves behind.
    Reflect.deleteMetadata('design:paramtypes', Tools.prototype, 'greet');
    expect(problemsOf(() => toolsFrom(new Tools()))).toEqual([
      {
        className: 'Tools',
        methodName: 'greet',
        parameterIndex: 0,
        message:
          'parameter "name": no TypeScript type was emitted for it (compile with "emitDecoratorMetadata"; esbuild and tsx drop it); give type: () => X',
      },
    ]);
  });

  it('@Param() on a whole DTO when no TypeScript type was emitted names the compiler flag', () => {
    class Order {
      @Param() item!: string;
    }
    class Tools {
      @Tool()
      order(@Param() order: Order) {
        return order.item;
      }
    }
    Reflect.deleteMetadata('design:paramtypes', Tools.prototype, 'order');
    expect(problemsOf(() => toolsFrom(new Tools()))).toEqual([
      {
        className: 'Tools',
        methodName: 'order',
        parameterIndex: 0,
        message:
          '@Param() without a name needs a parameter typed by a DTO class, but no TypeScript type was emitted for it (compile with "emitDecoratorMetadata"; esbuild and tsx drop it); give @Param({ type: () => YourDto }) or a name (@Param(\'x\'))',
      },
    ]);
  });
});
