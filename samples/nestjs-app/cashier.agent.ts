import { Injectable } from '@nestjs/common';
import { Agent } from '../../src';
import { RefundTools } from './refund.tools';

/** The second sub-agent: refunds orders with `refund_order`, which a person approves call by call. */
@Agent({
  name: 'cashier',
  description: 'Refunds orders',
  instructions: 'You refund the orders you are asked to refund.',
  tools: [RefundTools],
})
@Injectable()
export class CashierAgent {}
