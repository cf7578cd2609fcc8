import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type OpenAI from 'openai';
import { createScriptedClient } from './create-client';
import { createRequestHandler } from './request-handler';
import { ServerState } from './server-state';
import { ScriptSession } from './session';
import type {
  RecordedRequest,
  ScriptedClientOptions,
  ScriptedServer,
  ScriptedServerOptions,
  ScriptedSession,
  ScriptedTurn,
} from './types';

/**
 * Start an OpenAI-compatible server on 127.0.0.1 (random port) that answers from a script, on both wires:
 * `POST /v1/chat/completions` and `POST /v1/responses` (the Responses API), from the same turns.
 *
 * Made for driving the real openai SDK over real HTTP: streaming and non-stream replies, reasoning, tool
 * calls split into fragments, usage, HTTP errors, stalls and broken streams. Every request is recorded with
 * its body in chat shape, whichever wire it came by, so one assertion serves both. Each request consumes the next
 * turn of the script its API key selects; with none left it gets a 500 naming the request, so a missing turn
 * fails the test instead of hanging it. Always `close()` it: that also ends stalled connections.
 *
 * @example
 * const server = await startScriptedServer({
 *   turns: [
 *     { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
 *     { text: 'It is sunny in Paris.' },
 *   ],
 * });
 * try {
 *   const openai = server.client();
 *   const stream = await openai.chat.completions.create({ model: 'm', messages: [], stream: true });
 *   for await (const chunk of stream) console.log(chunk.choices[0]?.delta);
 *   expect(server.requests[0].body.messages).toEqual([]);
 * } finally {
 *   await server.close();
 * }
 */
export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const state = new ServerState(options);
  const http = createServer(createRequestHandler(state));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  return new RunningScriptedServer(http, state, `http://127.0.0.1:${port}/v1`);
}

class RunningScriptedServer implements ScriptedServer {
  private closing: Promise<void> | undefined;

  constructor(
    private readonly http: Server,
    private readonly state: ServerState,
    readonly baseURL: string,
  ) {}

  get requests(): RecordedRequest[] {
    return this.state.requests;
  }

  enqueue(...turns: ScriptedTurn[]): void {
    this.state.defaultScript.enqueue(turns);
  }

  session(turns: ScriptedTurn[] = []): ScriptedSession {
    return new ScriptSession(this.state.newSession(turns), this.baseURL);
  }

  client(options?: ScriptedClientOptions): OpenAI {
    return createScriptedClient(this.baseURL, this.state.defaultScript.apiKey, options);
  }

  pending(): number {
    return this.state.defaultScript.pending();
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve, reject) => {
      this.http.close((error) => (error ? reject(error) : resolve()));
      // Cut stalls short first so their timers are cleared, then drop sockets, idle keep-alive ones included.
      this.state.abortAll();
      this.http.closeAllConnections();
    });
    return this.closing;
  }
}
