import 'reflect-metadata';
import type OpenAI from 'openai';
import { Param, runAgentLoop, Tool, type RunAgentResponse, type ToolDefinition } from '../../src';

/** The catalogue's search API: rate-limited, and it sometimes answers 503. */
export type CatalogueApi = { search(query: string): Promise<string> };

/** The payment provider: it charges once per idempotency key, however often it is asked. */
export type PaymentsApi = { charge(orderId: string, cents: number, idempotencyKey: string): Promise<string> };

export class CatalogueTools {
  constructor(private readonly api: CatalogueApi) {}

  // A search changes nothing, so running it again is safe; at most 2 of a turn's searches run at once.
  @Tool({
    description: 'Search the catalogue',
    idempotent: true,
    concurrency: 2,
    retry: { attempts: 3, backoffMs: 250, retryOn: (error) => String(error).includes('503') },
  })
  search(@Param('query') query: string): Promise<string> {
    return this.api.search(query);
  }
}

type Charge = { orderId: string; cents: number };

/** A payment may run again only because the provider deduplicates by `ctx.idempotencyKey`. */
export function chargeTool(payments: PaymentsApi): ToolDefinition<Charge> {
  return {
    schema: {
      type: 'function',
      function: {
        name: 'charge',
        description: 'Charge an order, in cents',
        parameters: {
          type: 'object',
          properties: { orderId: { type: 'string' }, cents: { type: 'integer', minimum: 1 } },
          required: ['orderId', 'cents'],
          additionalProperties: false,
        },
      },
    },
    parseParams: (raw) => {
      const args = JSON.parse(raw || '{}') as Partial<Charge>;
      const problems = [
        ...(typeof args.orderId === 'string' && args.orderId ? [] : ['orderId: must be a non-empty string']),
        ...(Number.isInteger(args.cents) && args.cents! > 0 ? [] : ['cents: must be a whole number above 0']),
      ];
      return problems.length === 0
        ? { success: true, data: { orderId: args.orderId!, cents: args.cents! } }
        : { success: false, errorMessage: ['Invalid arguments for tool "charge":', ...problems].join('\n') };
    },
    execute: async ({ params, idempotencyKey }) => ({
      response: await payments.charge(params.orderId, params.cents, idempotencyKey ?? params.orderId),
    }),
    idempotent: true,
    retry: { attempts: 2, backoffMs: 1_000 },
    concurrency: 1,
  };
}

/**
 * The fix models need most: a number sent as a string (`"cents": "1250"`), in the fields the issues name. What it
 * returns is validated again before anything runs; nothing leaves the call invalid, and the model reads why.
 */
export function unquoteNumbers({ raw, issues }: { raw: string; issues: string[] }): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const failing = new Set(issues.map((issue) => issue.split(':')[0]));
  const numeric = (value: unknown) => typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim());
  const fixed = Object.entries(args as Record<string, unknown>).map(([key, value]) => [
    key,
    failing.has(key) && numeric(value) ? Number(value) : value,
  ]);
  return JSON.stringify(Object.fromEntries(fixed));
}

export function shop(client: OpenAI, tools: ToolDefinition[], question: string): Promise<RunAgentResponse> {
  return runAgentLoop({
    client,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] },
    tools,
    toolConcurrency: 8,
    repairArguments: unquoteNumbers,
  });
}
