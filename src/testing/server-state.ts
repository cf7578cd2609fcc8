import { Script } from './script';
import type { RecordedRequest, ScriptedServerOptions, ScriptedTurn } from './types';

/** A request before it has its numbers, on either route. */
export type NewRequest = RecordedRequest extends infer R
  ? R extends unknown
    ? Omit<R, 'index' | 'turnIndex'>
    : never
  : never;

/** Largest request body the scripted server reads when `maxBodyBytes` is not given: 32 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The API key of the default script; also the script chosen for unknown or missing keys. */
export const DEFAULT_API_KEY = 'sk-scripted-default';

/** Characters per streamed text/reasoning chunk when neither the server nor the reply says otherwise. */
export const DEFAULT_CHUNK_SIZE = 8;

/**
 * Abort reason for in-flight requests. Preallocated because `abort()` without a reason builds a DOMException
 * with a stack trace, and every response close aborts: that showed up in the benchmark profile.
 */
const RESPONSE_CLOSED = new Error('scripted server: response closed');

/**
 * Everything the request handler shares across requests: scripts, the request log, id counters and the
 * abort controllers of in-flight requests (so `close()` can cut every stall short).
 */
export class ServerState {
  readonly requests: RecordedRequest[] = [];
  readonly defaultScript: Script;
  readonly chunkSize: number;
  readonly model: string | undefined;
  /** Largest request body read, in bytes. */
  readonly maxBodyBytes: number;
  private readonly sessions = new Map<string, Script>();
  private readonly inflight = new Set<AbortController>();
  private sessionCount = 0;
  private toolCallCount = 0;
  private completionCount = 0;
  private responseCount = 0;
  /** The Responses output items this server served, by id: what an `item_reference` may name. */
  private readonly issued = new Map<string, object>();

  constructor(options: ScriptedServerOptions) {
    if (options.chunkSize !== undefined && !(Number.isInteger(options.chunkSize) && options.chunkSize > 0)) {
      throw new RangeError(`startScriptedServer: chunkSize must be a positive integer, got ${options.chunkSize}`);
    }
    this.defaultScript = new Script(DEFAULT_API_KEY, options.turns);
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    this.model = options.model;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  /** A new session script with a key unique to this server. */
  newSession(turns: readonly ScriptedTurn[]): Script {
    const script = new Script(`sk-scripted-session-${++this.sessionCount}`, turns);
    this.sessions.set(script.apiKey, script);
    return script;
  }

  /**
   * The script a key selects. Unknown keys fall back to the default script so a hand-built client with any
   * key still works; a session client never sends an unknown key because its key is fixed.
   */
  scriptFor(apiKey: string | undefined): Script {
    return (apiKey !== undefined && this.sessions.get(apiKey)) || this.defaultScript;
  }

  /** Log a request in the server's and its script's lists before it is answered. */
  record(script: Script, request: NewRequest): RecordedRequest {
    const recorded: RecordedRequest = { index: this.requests.length, turnIndex: script.requests.length, ...request };
    this.requests.push(recorded);
    script.requests.push(recorded);
    return recorded;
  }

  nextToolCallId(): string {
    return `call_${++this.toolCallCount}`;
  }

  nextCompletionId(): string {
    return `chatcmpl-scripted-${++this.completionCount}`;
  }

  /** Numbers Responses answers: `resp_scripted_<n>`, and their items' ids after it. */
  nextResponseNumber(): number {
    return ++this.responseCount;
  }

  /** Remember the output items of an answer, so a later `item_reference` to one of them reads as the item. */
  issue(items: readonly { id?: unknown }[]): void {
    for (const item of items) if (typeof item.id === 'string') this.issued.set(item.id, item);
  }

  /** The output item this server served under `id`, if it did. */
  issuedItem(id: unknown): object | undefined {
    return typeof id === 'string' ? this.issued.get(id) : undefined;
  }

  /** A controller aborted when the response closes or the server shuts down, whichever comes first. */
  track(onClose: (listener: () => void) => void): AbortSignal {
    const controller = new AbortController();
    this.inflight.add(controller);
    onClose(() => {
      this.inflight.delete(controller);
      controller.abort(RESPONSE_CLOSED);
    });
    return controller.signal;
  }

  abortAll(): void {
    for (const controller of this.inflight) controller.abort(RESPONSE_CLOSED);
    this.inflight.clear();
  }
}
