import { Injectable } from '@nestjs/common';
import { Agent } from '../../src';
import { CashierAgent } from './cashier.agent';
import { ResearchAgent } from './research.agent';

/**
 * The master agent: its model sees its two sub-agents as two tools. The app's assistant sees it as one tool; a
 * refund the cashier asks for pauses the whole run until a person decides (`POST /agent/runs/:runId/decisions`).
 */
@Agent({
  name: 'support',
  description: "Handles a customer's request: looks things up and refunds orders",
  instructions: 'You handle customer requests: ask research to look things up and cashier to refund orders.',
  tools: [ResearchAgent, CashierAgent],
})
@Injectable()
export class SupportAgent {}
