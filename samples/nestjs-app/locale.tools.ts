import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { Tool } from '../../src';

/**
 * A request-scoped tool provider: Nest builds one per run, with the HTTP request that started it, so two users'
 * concurrent runs each read their own time zone.
 */
@Injectable({ scope: Scope.REQUEST })
export class LocaleTools {
  private readonly timeZone: string;

  constructor(@Inject(REQUEST) request: IncomingMessage) {
    const zone = request.headers['x-timezone'];
    this.timeZone = typeof zone === 'string' && isTimeZone(zone) ? zone : 'UTC';
  }

  @Tool({ name: 'local_time', description: "The user's current date and time, in their time zone." })
  localTime(): { timeZone: string; localTime: string } {
    return { timeZone: this.timeZone, localTime: new Date().toLocaleString('en-GB', { timeZone: this.timeZone }) };
  }
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
