// Loaded before any decorated class body runs, so TypeScript's emitted design:* metadata has somewhere to go.
import 'reflect-metadata';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ToolOptions } from '../metadata/options';
import { classOf } from '../metadata/class-chain';

/**
 * Mark a method as a tool the model can call. Only records metadata; `toolsFrom` builds the definition.
 *
 * @example
 * class WeatherTools {
 *   @Tool({ description: 'Current weather for a city' })
 *   getWeather(@Param('city', { description: 'City name' }) city: string) {
 *     return `Sunny in ${city}`;
 *   }
 * }
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (prototype, methodKey) => {
    const methodName = String(methodKey);
    getMetadataStorage().addTool({
      target: classOf(prototype),
      methodName,
      name: options.name ?? methodName,
      description: options.description,
      strict: options.strict,
      timeoutMs: options.timeoutMs,
      idempotent: options.idempotent,
      concurrency: options.concurrency,
      retry: options.retry,
      repairArguments: options.repairArguments,
      needsApproval: options.needsApproval,
      deferred: options.deferred,
      title: options.title,
      annotations: options.annotations,
      output: options.output,
      task: options.task,
    });
  };
}
