import 'reflect-metadata';
import { Injectable, type LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, Max } from 'class-validator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { AgentToolsModule, ToolRegistry, type AgentToolsModuleOptions } from '../../src/nestjs';

@Injectable()
class ForecastTools {
  @Tool({ description: 'Forecast' })
  forecast(@Param('days', { examples: [3] }, IsInt(), Max(7)) days: number) {
    return `${days} days`;
  }
}

@Injectable()
class NoteTools {
  @Tool()
  listNotes() {
    return '';
  }
}

/** Start a Nest app with the module's options and return what its logger received from AgentToolsModule. */
async function startupLog(
  options: AgentToolsModuleOptions,
  providers: readonly (new (...args: never[]) => object)[] = [ForecastTools],
): Promise<{ messages: string[]; warnings: string[]; registry: ToolRegistry }> {
  const messages: string[] = [];
  const warnings: string[] = [];
  const logger: LoggerService = {
    log: (message: unknown, context?: unknown) => {
      if (context === 'AgentToolsModule') messages.push(String(message));
    },
    error: () => undefined,
    warn: (message: unknown, context?: unknown) => {
      if (context === 'AgentToolsModule') warnings.push(String(message));
    },
  };
  const moduleRef = await Test.createTestingModule({
    imports: [AgentToolsModule.forRoot(options)],
    providers: [...providers],
  })
    .setLogger(logger)
    .compile();
  await moduleRef.init();
  const registry = moduleRef.get(ToolRegistry);
  await moduleRef.close();
  return { messages, warnings, registry };
}

describe('AgentToolsModule schemaReport option', () => {
  it("logs, at startup, what the module's profile leaves out of each tool schema", async () => {
    const { messages, registry } = await startupLog({ profile: 'anthropic', schemaReport: true });
    expect(messages).toEqual([
      "Schema profile 'anthropic' leaves 1 keyword(s) out of the tool schemas; validation still enforces them:\n" +
        '  forecast days: maximum 7, described as "at most 7"',
    ]);
    expect(registry.getTool('forecast')!.schema.function.parameters).toMatchObject({
      properties: { days: { description: 'at most 7', type: 'integer', examples: [3] } },
    });
  });

  it('reports on the profiles it is given, keywords without a description included', async () => {
    const { messages } = await startupLog({ schemaReport: ['openai', 'gemini'] });
    expect(messages).toEqual([
      "Schema profile 'openai': the tool schemas carry every constraint",
      "Schema profile 'gemini' leaves 2 keyword(s) out of the tool schemas; validation still enforces them:\n" +
        '  forecast days: examples [3], described as "for example: 3"\n' +
        '  forecast (arguments): additionalProperties false, not stated',
    ]);
  });

  it('warns about tools without a description, beside the omissions', async () => {
    const { messages, warnings } = await startupLog({ schemaReport: true }, [ForecastTools, NoteTools]);
    expect(messages).toEqual(["Schema profile 'openai': the tool schemas carry every constraint"]);
    expect(warnings).toEqual([
      'NoteTools.listNotes (tool listNotes): @Tool() has no description, so the model knows the tool by its name alone; give @Tool({ description })',
    ]);
  });

  it('logs nothing unless asked', async () => {
    const { messages, warnings } = await startupLog({ profile: 'gemini' }, [ForecastTools, NoteTools]);
    expect([...messages, ...warnings]).toEqual([]);
  });
});
