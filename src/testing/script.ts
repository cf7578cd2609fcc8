import type { RecordedRequest, ScriptedTurn } from './types';

/**
 * One queue of turns and the requests that consumed them: the default script or a session's.
 *
 * Turns are taken when a request arrives, not when it is answered, so concurrent requests on one script
 * consume turns in arrival order even when earlier turns stall.
 */
export class Script {
  readonly requests: RecordedRequest[] = [];
  private readonly turns: ScriptedTurn[];

  constructor(
    readonly apiKey: string,
    turns: readonly ScriptedTurn[] = [],
  ) {
    this.turns = [...turns];
  }

  enqueue(turns: readonly ScriptedTurn[]): void {
    this.turns.push(...turns);
  }

  /** The next turn, or `undefined` when the script is exhausted. */
  take(): ScriptedTurn | undefined {
    return this.turns.shift();
  }

  pending(): number {
    return this.turns.length;
  }
}
