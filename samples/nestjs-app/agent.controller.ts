import { BadRequestException, Controller, Query, Sse, type MessageEvent } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { AgentService } from './agent.service';

/** `GET /agent/stream?prompt=…`: the agent's events as server-sent events. */
@Controller('agent')
export class AgentController {
  constructor(private readonly agent: AgentService) {}

  @Sse('stream')
  stream(@Query('prompt') prompt?: string): Observable<MessageEvent> {
    if (!prompt?.trim()) throw new BadRequestException('Query parameter "prompt" is required');
    return this.agent.run(prompt).pipe(map((event) => ({ type: event.type, data: event })));
  }
}
