// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { Ctx, Param, Tool, toolResult, toolsFrom, type ToolDefinition, type ToolExecuteContext } from '../../src';
import { createMcpHttpHandler, mcpTools, type McpHttpHandler, type McpTaskIds } from '../../src/mcp';

/** A tool that asks which seat before it books, and one that asks for approval before it deletes. */
export class BookingTools {
  @Tool({ description: 'Book a seat on a flight' })
  book(@Param('flight') flight: string, @Ctx() ctx?: ToolExecuteContext) {
    if (!ctx?.answer) {
      return toolResult.interactive({
        type: 'mcp_input',
        message: `Which seat on ${flight}?`,
        requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
      });
    }
    if (ctx.answer.action !== 'accept') return `No seat booked on ${flight}`;
    return `Booked ${String(ctx.answer.content?.seat)} on ${flight}`;
  }

  @Tool({ description: 'Cancel a booking', needsApproval: true })
  cancel(@Param('booking') booking: string): string {
    return `Cancelled ${booking}`;
  }
}

/** Every instance behind the load balancer gets the same `stateSecret`: any of them takes the answer. */
export function bookingEndpoint(stateSecret: string): McpHttpHandler {
  return createMcpHttpHandler(toolsFrom(new BookingTools()), {
    name: 'bookings',
    version: '1.0.0',
    stateSecret,
    caller: (auth) => auth?.clientId,
  });
}

/** A remote server's task tools, their task ids kept where every worker reaches them. */
export function remoteTaskTools(client: Client, kept: Map<string, string>): Promise<ToolDefinition[]> {
  const taskIds: McpTaskIds = {
    get: async (key) => kept.get(key),
    set: async (key, taskId) => void kept.set(key, taskId),
  };
  return mcpTools(client, { prefix: 'batch_', taskIds });
}
