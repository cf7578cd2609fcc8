/**
 * Question: what does running the NestJS sample's tools through `ToolRegistry` cost per step, next to the same
 * decorated class built with `toolsFrom` outside Nest? One `calculate` call per turn, a zero-latency scripted
 * model in another process.
 * Budget (issue: NestJS-native tool calls): tools without enhancers cost nothing extra per call (≈ 1.00×);
 * the line with a global pass-through interceptor shows what Nest's enhancer pipeline costs when one applies.
 */
import 'reflect-metadata';
import { Injectable, Module, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import type { Observable } from 'rxjs';
import { runAgentLoop } from '../src/run-agent-loop';
import { toolsFrom } from '../src/definitions/tools-from';
import { AgentToolsModule, ToolRegistry } from '../src/nestjs';
import type { ToolDefinition } from '../src/toolCall/type';
import { ToolsModule } from '../samples/nestjs-app/app.module';
import { CalculatorTools } from '../samples/tools';
import { compare, cpuMicros, report, startBenchServer } from './lib/harness';

const TURNS = 10;
const RUNS = 100;
const ROUNDS = 9;

@Injectable()
class PassThroughInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

@Module({ imports: [AgentToolsModule.forRoot(), ToolsModule] })
class PlainApp {}

@Module({
  imports: [AgentToolsModule.forRoot(), ToolsModule],
  providers: [{ provide: APP_INTERCEPTOR, useClass: PassThroughInterceptor }],
})
class InterceptedApp {}

export async function nestjsTools(): Promise<void> {
  const server = await startBenchServer();
  const plainApp = await NestFactory.createApplicationContext(PlainApp, { logger: false });
  const interceptedApp = await NestFactory.createApplicationContext(InterceptedApp, { logger: false });
  const model = `bench-${TURNS}-1-calculate`;
  const steps = RUNS * (TURNS + 1);
  const loop = (tools: ToolDefinition[]) => () =>
    cpuMicros(async () => {
      for (let i = 0; i < RUNS; i++) {
        const result = await runAgentLoop({
          client: server.client,
          body: { model, messages: [{ role: 'user', content: 'Add things up.' }] },
          tools,
          maxRunAgentTimes: 100,
          maxConsecutiveToolTurns: 0,
        });
        if (result.stopReason !== 'completed') throw new Error(`run ended with ${result.stopReason}`);
      }
    });
  try {
    const variants = {
      outside: loop(toolsFrom(new CalculatorTools())),
      // The same variant again: how far two identical measurements drift apart on this machine.
      outsideAgain: loop(toolsFrom(new CalculatorTools())),
      registry: loop(plainApp.get(ToolRegistry).getToolsOf(CalculatorTools)),
      intercepted: loop(interceptedApp.get(ToolRegistry).getToolsOf(CalculatorTools)),
    };
    // Warm every path (JIT, sockets, Nest's handler caches) before measuring.
    await compare(variants, 2);
    const result = await compare(variants, ROUNDS);
    console.log(`NestJS sample tools: ${RUNS} runs × ${TURNS + 1} model turns, median of ${ROUNDS}, CPU per step`);
    const base = result.outside / steps / 1000;
    report('toolsFrom(new CalculatorTools()), no Nest', base, 'ms');
    report('the same, measured again (noise)', result.outsideAgain / steps / 1000, 'ms', base);
    report('ToolRegistry, no enhancers', result.registry / steps / 1000, 'ms', base);
    report('ToolRegistry, a global interceptor', result.intercepted / steps / 1000, 'ms', base);
  } finally {
    server.stop();
    await plainApp.close();
    await interceptedApp.close();
  }
}

if (require.main === module) void nestjsTools();
