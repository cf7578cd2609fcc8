import { Injectable } from '@nestjs/common';
import { Param, Tool } from '../../src';

/** A tool a person must approve before it runs: the queued mode pauses the run (holding no worker) until then. */
@Injectable()
export class RefundTools {
  readonly refunded: string[] = [];

  @Tool({ name: 'refund_order', description: 'Refund an order in full.', needsApproval: true })
  refund(@Param('orderId', { description: 'The order to refund' }) orderId: string): string {
    this.refunded.push(orderId);
    return `Refunded order ${orderId}`;
  }
}
