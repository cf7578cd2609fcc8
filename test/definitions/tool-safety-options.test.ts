import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import { ToolDefinitionError } from '../../src/errors/tool-definition.error';
import { runTool } from '../../src/toolCall/run-tool';
import type { RepairArgumentsInput } from '../../src/toolCall/type';

const call = (name: string, args: string) => ({
  id: 'c1',
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('@Tool safety options', () => {
  it('toolsFrom throws a ToolDefinitionError for retry without idempotent: true, naming the method', () => {
    class Payments {
      @Tool({ retry: { attempts: 3 } })
      charge(@Param('cents') cents: number) {
        return `charged ${cents}`;
      }
    }
    let thrown: unknown;
    try {
      toolsFrom(new Payments());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolDefinitionError);
    expect((thrown as ToolDefinitionError).problems).toEqual([
      {
        className: 'Payments',
        methodName: 'charge',
        message: expect.stringMatching(/^retry is set but idempotent is not true/),
      },
    ]);
    expect((thrown as Error).message).toMatch(/Payments\.charge: retry is set but idempotent is not true/);
  });

  it('refuses a concurrency or attempts that is not a whole number of at least 1', () => {
    class Limits {
      @Tool({ concurrency: 0.5, idempotent: true, retry: { attempts: 0 } })
      fetch() {
        return '';
      }
    }
    expect(() => toolsFrom(new Limits())).toThrow(
      /concurrency must be a whole number of at least 1[\s\S]*retry\.attempts must be a whole number of at least 1/,
    );
  });

  it('carries concurrency, idempotent, retry and repairArguments to the definition, and they work', async () => {
    class WeatherArgs {
      @IsString()
      city!: string;
    }
    const seen: RepairArgumentsInput[] = [];
    let runs = 0;
    class Weather {
      @Tool({
        idempotent: true,
        concurrency: 2,
        retry: { attempts: 2 },
        repairArguments: (input) => {
          seen.push(input);
          return '{"city":"Oslo"}';
        },
      })
      forecast(@Param() args: WeatherArgs) {
        if (++runs === 1) throw new Error('flaky');
        return `sunny in ${args.city}`;
      }
    }
    const [tool] = toolsFrom(new Weather());
    expect(tool).toMatchObject({ idempotent: true, concurrency: 2, retry: { attempts: 2 } });
    const result = await runTool({ call: call('forecast', '{"city": 5, "days": 3}'), messages: [], tools: [tool] });
    expect(seen).toHaveLength(1);
    // The problems the model would read, each naming its field.
    expect(seen[0].issues).toEqual(['days: property days should not exist', 'city: city must be a string']);
    expect(seen[0].tool.name).toBe('forecast');
    expect(result).toMatchObject({ outcome: 'ok', attempts: 2, repairedArguments: '{"city":"Oslo"}' });
    expect(result.response).toMatch(/repaired before it ran, to \{"city":"Oslo"\}\nsunny in Oslo$/);
  });
});
