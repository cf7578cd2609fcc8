import {
  Body,
  ConflictException,
  Controller,
  ForbiddenException,
  Get,
  Headers,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Sse,
  type MessageEvent,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { Observable } from 'rxjs';
import type { Decision } from '../../src';
import { AgentRuns, ResumeTokenError, RunNotFoundError, type RunRecord } from '../../src/bullmq';
import { MODEL_NAME } from './agent.tokens';
import { callerOf } from './caller';

/**
 * The queued mode: `POST /runs` queues a run, `GET /runs/:id/events` streams its events (from any process, resuming
 * after `Last-Event-ID`), `GET /runs/:id/resume-token` hands an admin the token of a waiting run, and
 * `POST /runs/:id/decisions` answers it with that token. Reads (`GET /runs/:id`, events) never carry a token.
 */
@Controller('runs')
export class RunsController {
  constructor(
    private readonly runs: AgentRuns,
    @Inject(MODEL_NAME) private readonly model: string,
  ) {}

  @Post()
  start(@Body() body: { prompt: string }): Promise<{ runId: string }> {
    return this.runs.start({ body: { model: this.model, messages: [{ role: 'user', content: body.prompt }] } });
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<RunRecord> {
    try {
      return await this.runs.get(id);
    } catch (error) {
      if (RunNotFoundError.isInstance(error)) throw new NotFoundException(error.message);
      throw error;
    }
  }

  /**
   * The token `decide` needs, for the person allowed to approve: here an admin (the sample's callers come from
   * headers; a real app checks its own authentication). `404` when the run is unknown, `409` when it is not waiting.
   */
  @Get(':id/resume-token')
  async resumeToken(@Param('id') id: string, @Req() request: IncomingMessage): Promise<{ token: string }> {
    if (callerOf(request).role !== 'admin') throw new ForbiddenException('Only an admin decides on runs');
    let token: string | undefined;
    try {
      token = await this.runs.resumeToken(id);
    } catch (error) {
      if (RunNotFoundError.isInstance(error)) throw new NotFoundException(error.message);
      throw error;
    }
    if (token === undefined) throw new ConflictException(`Run ${id} is not waiting for a decision`);
    return { token };
  }

  @Sse(':id/events')
  events(
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId?: string,
    @Query('after') after?: string,
  ): Observable<MessageEvent> {
    return new Observable<MessageEvent>((subscriber) => {
      const iterator = this.runs.events(id, { after: lastEventId ?? after })[Symbol.asyncIterator]();
      void (async () => {
        for (;;) {
          const next = await iterator.next();
          if (next.done || subscriber.closed) break;
          subscriber.next({ id: next.value.id, type: next.value.type, data: next.value });
        }
        subscriber.complete();
      })().catch((error: unknown) => subscriber.error(error));
      // A client that goes away closes its Redis reader at once.
      return () => void iterator.return?.();
    });
  }

  @Post(':id/decisions')
  async decide(
    @Param('id') id: string,
    @Body() body: { decisions: Record<string, Decision>; token?: string },
  ): Promise<{ ok: true }> {
    try {
      await this.runs.decide(id, body.decisions, { token: body.token });
      return { ok: true };
    } catch (error) {
      if (ResumeTokenError.isInstance(error)) throw new ForbiddenException(error.message);
      throw error;
    }
  }
}
