import 'reflect-metadata';
import { Exclude } from 'class-transformer';
import { IsInt } from 'class-validator';
import { Ctx } from '../../src/decorators/ctx.decorator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolResult } from '../../src/definitions/results/tool-result';
import { toolsFrom } from '../../src/definitions/tools-from';
import { getMetadataStorage } from '../../src/metadata/metadata-storage';
import type { ToolDefinition, ToolExecuteContext } from '../../src/toolCall/type';

class User {
  constructor(
    readonly name: string,
    passwordHash: string,
  ) {
    this.passwordHash = passwordHash;
  }

  @Exclude() passwordHash: string;
}

class Counter {
  calls: unknown[][] = [];

  constructor(private readonly step: number) {}

  @Tool({ description: 'Add to the counter' })
  add(@Param('by', {}, IsInt()) by: number, @Ctx() ctx: ToolExecuteContext) {
    this.calls.push([by, ctx.call.id]);
    return `total ${by * this.step}`;
  }

  @Tool({ timeoutMs: 250 })
  async slowAdd(@Param('by', {}, IsInt()) by: number) {
    await Promise.resolve();
    return { total: by * this.step };
  }

  @Tool()
  user() {
    return new User('ada', 'secret-hash');
  }

  @Tool()
  nothing(): void {}

  @Tool()
  finish(@Param('summary') summary: string) {
    return toolResult.stop(summary);
  }

  @Tool()
  explode(): string {
    throw new Error('boom');
  }
}

async function call(tool: ToolDefinition, raw: string, id = 'call_1') {
  const parsed = tool.parseParams!(raw);
  if (!parsed.success) throw new Error(parsed.errorMessage);
  const ctx: ToolExecuteContext = {
    call: { id, type: 'function', function: { name: tool.schema.function.name, arguments: raw } },
    messages: [],
    params: parsed.data,
    signal: new AbortController().signal,
  };
  return tool.execute(ctx);
}

function byName(tools: ToolDefinition[], name: string): ToolDefinition {
  const tool = tools.find((t) => t.schema.function.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

describe('toolsFrom: execute', () => {
  const counter = new Counter(10);
  const tools = toolsFrom(counter);

  it('calls the method on the instance with positional arguments, @Ctx getting the context', async () => {
    await expect(call(byName(tools, 'add'), '{"by": 2}', 'call_7')).resolves.toEqual({ response: 'total 20' });
    expect(counter.calls).toEqual([[2, 'call_7']]);
  });

  it('awaits async methods and turns objects into JSON', async () => {
    await expect(call(byName(tools, 'slowAdd'), '{"by": 3}')).resolves.toEqual({ response: '{"total":30}' });
  });

  it('keeps @Exclude()d fields away from the model', async () => {
    await expect(call(byName(tools, 'user'), '')).resolves.toEqual({ response: '{"name":"ada"}' });
  });

  it('answers undefined with an empty response', async () => {
    await expect(call(byName(tools, 'nothing'), '')).resolves.toEqual({ response: '' });
  });

  it('passes toolResult fields through', async () => {
    await expect(call(byName(tools, 'finish'), '{"summary": "done"}')).resolves.toEqual({
      response: 'done',
      stop: true,
    });
  });

  it('lets what the method throws propagate (runTool reports it)', async () => {
    await expect(call(byName(tools, 'explode'), '')).rejects.toThrow('boom');
  });

  it('copies timeoutMs from @Tool', () => {
    expect(byName(tools, 'slowAdd').timeoutMs).toBe(250);
    expect(byName(tools, 'add')).not.toHaveProperty('timeoutMs');
  });

  it('carries @Tool({ deferred: true }) into the definition, and nothing without it', () => {
    class Catalog {
      @Tool({ deferred: true, description: 'Rarely needed' })
      archive() {
        return 'archived';
      }

      @Tool({ deferred: false })
      list() {
        return 'listed';
      }
    }
    const record = getMetadataStorage()
      .getTools(Catalog)
      .find((tool) => tool.methodName === 'archive');
    const before = { ...record };
    const [archive, list] = toolsFrom(new Catalog());
    expect(archive.deferred).toBe(true);
    expect(archive.schema.function).not.toHaveProperty('deferred');
    expect(list).not.toHaveProperty('deferred');
    expect(byName(tools, 'add')).not.toHaveProperty('deferred');
    // Building only reads the record.
    expect(record).toEqual(before);
    expect(record?.deferred).toBe(true);
  });

  it('looks the method up on each call, so later spies are honoured', async () => {
    const spied = new Counter(1);
    const [add] = toolsFrom(spied);
    jest.spyOn(spied, 'add').mockReturnValue('spied');
    await expect(call(add, '{"by": 1}')).resolves.toEqual({ response: 'spied' });
  });
});

describe('toolsFrom: building once per class, binding per instance', () => {
  it('shares schemas and parsers between instances but binds execute to each', async () => {
    const small = new Counter(1);
    const big = new Counter(100);
    const [smallAdd] = toolsFrom(small);
    const [bigAdd] = toolsFrom(big);
    expect(bigAdd.schema).toBe(smallAdd.schema);
    expect(bigAdd.parseParams).toBe(smallAdd.parseParams);
    await expect(call(smallAdd, '{"by": 2}')).resolves.toEqual({ response: 'total 2' });
    await expect(call(bigAdd, '{"by": 2}')).resolves.toEqual({ response: 'total 200' });
    expect(small.calls).toHaveLength(1);
    expect(big.calls).toHaveLength(1);
  });

  it('freezes the shared schema', () => {
    const [add] = toolsFrom(new Counter(1));
    expect(Object.isFrozen(add.schema.function.parameters)).toBe(true);
  });

  it('builds a class once, however many times toolsFrom runs', () => {
    class Probe {
      @Tool()
      ping(@Param('x') x: string) {
        return x;
      }
    }
    const spy = jest.spyOn(Reflect, 'getMetadata');
    toolsFrom(new Probe());
    const readsOnFirstBuild = spy.mock.calls.length;
    toolsFrom(new Probe());
    toolsFrom([new Probe()], { strict: true });
    const readsAfter = spy.mock.calls.length;
    spy.mockRestore();
    expect(readsOnFirstBuild).toBeGreaterThan(0);
    expect(readsAfter).toBe(readsOnFirstBuild);
  });
});

describe('toolsFrom: instances, options and inheritance', () => {
  class Echo {
    @Tool()
    echo(@Param('text', { optional: true }) text?: string) {
      return text ?? '';
    }
  }
  class Shout {
    @Tool({ strict: false, timeoutMs: 5 })
    shout(@Param('text', { optional: true }) text?: string) {
      return (text ?? '').toUpperCase();
    }
  }

  it('accepts several instances as arguments, in order', () => {
    expect(toolsFrom(new Echo(), new Shout()).map((t) => t.schema.function.name)).toEqual(['echo', 'shout']);
  });

  it('applies list-form defaults to tools that do not set their own', () => {
    const [echo, shout] = toolsFrom([new Echo(), new Shout()], { strict: true, timeoutMs: 1000 });
    expect(echo.schema.function.strict).toBe(true);
    expect(echo.schema.function.parameters).toEqual({
      type: 'object',
      properties: { text: { type: ['string', 'null'] } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(echo.timeoutMs).toBe(1000);
    expect(shout.schema.function).not.toHaveProperty('strict');
    expect(shout.timeoutMs).toBe(5);
  });

  it('includes inherited tools, base methods first, and runs overrides', async () => {
    class LoudEcho extends Echo {
      override echo(text?: string) {
        return `${text ?? ''}!`;
      }

      @Tool()
      whisper(@Param('text') text: string) {
        return text.toLowerCase();
      }
    }
    const [echo, whisper] = toolsFrom(new LoudEcho());
    expect([echo.schema.function.name, whisper.schema.function.name]).toEqual(['echo', 'whisper']);
    await expect(call(echo, '{"text": "hi"}')).resolves.toEqual({ response: 'hi!' });
  });
});
