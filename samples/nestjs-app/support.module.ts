import { Module } from '@nestjs/common';
import { CashierAgent } from './cashier.agent';
import { RefundModule } from './refund.module';
import { ResearchAgent } from './research.agent';
import { SupportAgent } from './support.agent';

/**
 * The master agent and its two sub-agents as providers: each is one tool in the `ToolRegistry`, its tools those the
 * registry bound to Nest's instances (the weather tools in `ToolsModule`, the refund tool in `RefundModule`).
 */
@Module({ imports: [RefundModule], providers: [ResearchAgent, CashierAgent, SupportAgent] })
export class SupportModule {}
