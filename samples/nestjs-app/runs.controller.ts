import {
  Body,
  Controller,
  ForbiddenException,
  Get,
  Headers,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Sse,
  type MessageEvent,
} from '@nestjs/common';
import { Observable } from 'rxjs';
import { AgentRuns, ResumeTokenError, RunNotFoundError, type Decision, type RunRecord } from '../../src/bullmq';
import { MODEL_NAME } from './agent.tokens';

/**
 * The queued mode: `POST /runs` queues a run, `GET /runs/:id/events` streams its events (from any process, resuming
 * after `Last-Event-ID`), `POST /runs/:id/decisions` answers a run waiting for approval.
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
