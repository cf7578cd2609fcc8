import { IsInt, Min } from 'class-validator';
import type OpenAI from 'openai';
import { OutputValidationError, Param, Tool, runAgentLoop, toolsFrom } from '../../src';

/** One line of an order. */
export class OrderLine {
  @Param({ description: 'Product code, from findSku' }) sku!: string;
  @Param({ description: 'How many' }) @IsInt() @Min(1) qty!: number;
}

/** The final answer the run must give: the same DTO rules as a tool's parameters. */
export class OrderDto {
  @Param({ description: 'Who the order is for' }) customer!: string;
  @Param({ type: () => [OrderLine] }) lines!: OrderLine[];
  @Param({ optional: true, description: 'Anything else the customer asked for' }) note?: string;
}

/** The tools stay available while the model works towards its answer. */
export class CatalogueTools {
  @Tool({ description: 'The product code of a product name' })
  findSku(@Param('name') name: string): string {
    return name.toLowerCase().includes('tea') ? 'TEA-01' : 'UNKNOWN';
  }
}

/** Turn a customer's message into an order: `result.output` is an `OrderDto`, no parsing, no cast. */
export async function takeOrder(client: OpenAI, message: string): Promise<OrderDto> {
  const result = await runAgentLoop({
    client,
    body: {
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'You take orders. Look up every product code before you answer.' },
        { role: 'user', content: message },
      ],
    },
    tools: toolsFrom(new CatalogueTools()),
    output: OrderDto,
    outputProfile: 'openai-strict',
    outputRetries: 2,
  });
  if (OutputValidationError.isInstance(result.error)) {
    // stopReason 'output_invalid': the last answer's problems, one `path: message` line each.
    throw new Error(`no valid order:\n${result.error.lines.join('\n')}`);
  }
  if (!result.output) throw result.error ?? new Error(`the run ended with ${result.stopReason}`);
  return result.output;
}
