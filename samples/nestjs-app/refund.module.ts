import { Module } from '@nestjs/common';
import { RefundTools } from './refund.tools';

/** The tool that needs approval, discovered from DI like the rest; one module, so one instance wherever imported. */
@Module({ providers: [RefundTools] })
export class RefundModule {}
