import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Ctx, Param, Tool, toolsFrom, type ToolExecuteContext } from '../../src';
import { toolMethodsOf } from '../../src/internal';

class NoteDto {
  @Param({ description: 'Text' })
  @IsString()
  text!: string;
}

class BaseTools {
  @Tool({ name: 'ping', description: 'Ping' })
  ping(): string {
    return 'pong';
  }

  @Tool({ description: 'Replaced by the subclass' })
  greet(@Param('name') name: string): string {
    return `hi ${name}`;
  }
}

class NoteTools extends BaseTools {
  @Tool({ name: 'add_note', description: 'Add a note' })
  addNote(@Param() note: NoteDto, @Ctx() ctx: ToolExecuteContext): string {
    return `${note.text} ${ctx.call.id}`;
  }

  @Tool({ name: 'greet_loudly', description: 'Greet' })
  override greet(@Param('name') name: string, @Param('times') times?: number): string {
    return `HI ${name}`.repeat(times ?? 1);
  }

  notATool(): void {}
}

describe('toolMethodsOf', () => {
  it("lists a class's tool methods, inherited ones included, in the order toolsFrom builds their definitions", () => {
    const methods = toolMethodsOf(NoteTools);
    expect(methods).toEqual([
      { name: 'ping', methodName: 'ping', parameters: [] },
      {
        name: 'greet_loudly',
        methodName: 'greet',
        parameters: [
          { kind: 'param', name: 'name' },
          { kind: 'param', name: 'times' },
        ],
      },
      { name: 'add_note', methodName: 'addNote', parameters: [{ kind: 'args' }, { kind: 'context' }] },
    ]);
    expect(toolsFrom(new NoteTools()).map((tool) => tool.schema.function.name)).toEqual(methods.map((m) => m.name));
  });

  it('is empty for a class without tools, and the same frozen list on every call', () => {
    expect(toolMethodsOf(class Plain {})).toEqual([]);
    expect(toolMethodsOf(NoteTools)).toBe(toolMethodsOf(NoteTools));
    expect(Object.isFrozen(toolMethodsOf(NoteTools))).toBe(true);
  });

  it('does not throw for a class toolsFrom refuses', () => {
    class Broken {
      @Tool({ description: 'Undecorated parameter' })
      run(value: string): string {
        return value;
      }
    }
    expect(toolMethodsOf(Broken)).toEqual([{ name: 'run', methodName: 'run', parameters: [{ kind: 'context' }] }]);
    expect(() => toolsFrom(new Broken())).toThrow(/has no @Param or @Ctx decorator/);
  });
});
