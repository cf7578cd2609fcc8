import 'reflect-metadata';
import { Injectable, Module, Scope } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { ToolDefinitionError } from '../../src/errors';
import { runTool } from '../../src/toolCall/run-tool';
import { AgentToolsModule, ToolRegistry } from '../../src/nestjs';

@Injectable()
class WeatherApi {
  readonly calls: string[] = [];
  temperature(city: string): number {
    this.calls.push(city);
    return city.length;
  }
}

@Injectable()
class WeatherTools {
  constructor(private readonly api: WeatherApi) {}

  @Tool({ description: 'Current temperature' })
  temperature(@Param('city') city: string): string {
    return `${city}: ${this.api.temperature(city)}°C`;
  }
}

@Injectable()
class MathTools {
  @Tool({ description: 'Add two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): number {
    return a + b;
  }

  @Tool({ name: 'multiply', description: 'Multiply' })
  times(@Param('a') a: number, @Param('b') b: number): number {
    return a * b;
  }

  notATool(): string {
    return 'ignored';
  }
}

@Injectable()
class PlainService {
  hello(): string {
    return 'hi';
  }
}

@Module({ providers: [WeatherApi, WeatherTools], exports: [WeatherApi] })
class WeatherModule {}

@Module({ providers: [MathTools, PlainService] })
class MathModule {}

/** What `init()` failed with; Nest can throw from a lifecycle hook before returning its promise. */
async function initError(moduleRef: TestingModule): Promise<unknown> {
  try {
    await moduleRef.init();
  } catch (error) {
    return error;
  }
  return undefined;
}

const call = (name: string, args: object) => ({
  id: 'c1',
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe('AgentToolsModule', () => {
  it('discovers tool providers across modules, bound to their DI instances', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot(), WeatherModule, MathModule],
    }).compile();
    const app = await moduleRef.init();
    const registry = app.get(ToolRegistry);

    expect(
      registry
        .getTools()
        .map((t) => t.schema.function.name)
        .sort(),
    ).toEqual(['add', 'multiply', 'temperature']);
    expect(registry.getToolsOf(MathTools).map((t) => t.schema.function.name)).toEqual(['add', 'multiply']);
    expect(registry.getToolsOf(PlainService)).toEqual([]);
    expect(registry.getTool('multiply')?.schema.function.description).toBe('Multiply');
    expect(registry.getTool('notATool')).toBeUndefined();
    expect(registry.getTools()).toBe(registry.getTools());

    const result = await runTool({
      call: call('temperature', { city: 'Oslo' }),
      messages: [],
      tools: registry.getTools(),
    });
    expect(result.response).toBe('Oslo: 4°C');
    expect(app.get(WeatherApi).calls).toEqual(['Oslo']);
    await app.close();
  });

  it('takes tool defaults from forRootAsync, built with injected config', async () => {
    @Injectable()
    class Config {
      readonly strict = true;
    }
    @Module({ providers: [Config], exports: [Config] })
    class ConfigModule {}

    const moduleRef = await Test.createTestingModule({
      imports: [
        AgentToolsModule.forRootAsync({
          imports: [ConfigModule],
          inject: [Config],
          useFactory: (config: Config) => ({ strict: config.strict, timeoutMs: 1234 }),
        }),
        MathModule,
      ],
    }).compile();
    const registry = (await moduleRef.init()).get(ToolRegistry);
    const add = registry.getTool('add')!;
    expect(add.schema.function.strict).toBe(true);
    expect(add.timeoutMs).toBe(1234);
    await moduleRef.close();
  });

  it('finds tools on useValue providers and ignores providers without tools', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot()],
      providers: [{ provide: 'MATH', useValue: new MathTools() }, PlainService],
    }).compile();
    const registry = (await moduleRef.init()).get(ToolRegistry);
    expect(registry.getTools().map((t) => t.schema.function.name)).toEqual(['add', 'multiply']);
    await moduleRef.close();
  });

  it('starts with request-scoped and transient tool providers, resolved per run instead of at bootstrap', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequestTools {
      @Tool() whoami(): string {
        return 'me';
      }
    }
    @Injectable({ scope: Scope.TRANSIENT })
    class TransientTools {
      @Tool() roll(): number {
        return 4;
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot(), MathModule],
      providers: [PerRequestTools, TransientTools],
    }).compile();
    expect(await initError(moduleRef)).toBeUndefined();
    const registry = moduleRef.get(ToolRegistry);
    expect(registry.getTools().map((t) => t.schema.function.name)).toEqual(['add', 'multiply']);
    const resolved = (await registry.resolveTools()).map((t) => t.schema.function.name);
    expect(resolved.sort()).toEqual(['add', 'multiply', 'roll', 'whoami']);
    await moduleRef.close();
  });

  it('reports tool names used by two providers at bootstrap', async () => {
    @Injectable()
    class OtherMath {
      @Tool() add(@Param('x') x: number): number {
        return x;
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [AgentToolsModule.forRoot(), MathModule],
      providers: [OtherMath],
    }).compile();
    const error = await initError(moduleRef);
    expect(ToolDefinitionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/duplicate tool name "add"/);
  });
});
