import { BadRequestException, Controller, Query, Req, Sse, type MessageEvent } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { map, type Observable } from 'rxjs';
import { AgentService } from './agent.service';

/** `GET /agent/stream?prompt=…`: the agent's events as server-sent events, for the request's caller. */
@Controller('agent')
export class AgentController {
  constructor(private readonly agent: AgentService) {}

  @Sse('stream')
  stream(@Query('prompt') prompt: string | undefined, @Req() request: IncomingMessage): Observable<MessageEvent> {
    if (!prompt?.trim()) throw new BadRequestException('Query parameter "prompt" is required');
    return this.agent.run(prompt, request).pipe(map((event) => ({ type: event.type, data: event })));
  }
}
