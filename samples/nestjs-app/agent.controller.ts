import {
  BadRequestException,
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Sse,
  type MessageEvent,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { map, type Observable } from 'rxjs';
import type { Decision } from '../../src';
import type { PendingCallView, RunOutcome } from './agent.events';
import { AgentService } from './agent.service';

/**
 * `GET /agent/stream?prompt=…`: the agent's events as server-sent events, for the request's caller. A run that waits for a person ends its
 * stream with `done` (`stopReason: 'interactive'`, its `runId` and `pending` calls); `GET /agent/runs/:runId/pending`
 * lists them again and `POST /agent/runs/:runId/decisions` (`{ "decisions": { "<call id>": { "approve": true } } }`)
 * resumes the run from its stored state. A sub-agent's call is keyed by its path, `"<agentPath…>/<call id>"`.
 */
@Controller('agent')
export class AgentController {
  constructor(private readonly agent: AgentService) {}

  @Sse('stream')
  stream(@Query('prompt') prompt: string | undefined, @Req() request: IncomingMessage): Observable<MessageEvent> {
    if (!prompt?.trim()) throw new BadRequestException('Query parameter "prompt" is required');
    return this.agent.run(prompt, request).pipe(map((event) => ({ type: event.type, data: event })));
  }

  @Get('runs/:runId/pending')
  async pending(@Param('runId') runId: string): Promise<{ runId: string; pending: PendingCallView[] }> {
    const pending = await this.agent.pending(runId);
    if (!pending) throw new NotFoundException(`No run ${runId}`);
    return { runId, pending };
  }

  @Post('runs/:runId/decisions')
  async decide(
    @Param('runId') runId: string,
    @Body() body: { decisions?: unknown },
    @Req() request: IncomingMessage,
  ): Promise<RunOutcome> {
    const decisions = body?.decisions;
    if (typeof decisions !== 'object' || decisions === null || Array.isArray(decisions))
      throw new BadRequestException('Body must be { "decisions": { "<tool call id>": <decision> } }');
    const outcome = await this.agent.decide(runId, decisions as Record<string, Decision>, request);
    if (!outcome) throw new NotFoundException(`No run ${runId}`);
    return outcome;
  }
}
