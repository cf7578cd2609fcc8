import 'reflect-metadata';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { definitionWarnings } from '../../src/definitions/definition-warnings';
import { toolsFrom } from '../../src/definitions/tools-from';

class Notes {
  @Tool({ description: 'Save a note' })
  save(@Param('text') text: string) {
    return text;
  }

  @Tool()
  list() {
    return '';
  }

  @Tool({ name: 'clear_all', description: '   ' })
  clear() {
    return '';
  }
}

describe('definitionWarnings', () => {
  it('warns about each tool without a description, which toolsFrom still accepts', () => {
    expect(toolsFrom(new Notes())).toHaveLength(3);
    const message =
      '@Tool() has no description, so the model knows the tool by its name alone; give @Tool({ description })';
    expect(definitionWarnings([new Notes()])).toEqual([
      { tool: 'list', className: 'Notes', methodName: 'list', message },
      { tool: 'clear_all', className: 'Notes', methodName: 'clear', message },
    ]);
    expect(definitionWarnings([Notes])).toEqual(definitionWarnings([new Notes()]));
  });

  it('is empty for tools that all have descriptions, and never throws for a class toolsFrom refuses', () => {
    class Described {
      @Tool({ description: 'Ping' })
      ping() {
        return 'pong';
      }
    }
    class Broken {
      @Tool({ name: 'bad name' })
      run(untyped: string) {
        return untyped;
      }
    }
    expect(definitionWarnings([Described])).toEqual([]);
    expect(definitionWarnings([Broken]).map((w) => w.tool)).toEqual(['bad name']);
  });
});
