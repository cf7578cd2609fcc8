/**
 * A tiny node:http server on 127.0.0.1 that answers each request with the next of the bodies it was given (SSE or
 * JSON, or anything else), recording every request body, plus builders of Responses API event streams after
 * OpenAI's published shapes. For the Responses wire's tests: one body per request, nothing scripted.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';

/**
 * One answer: a status, a content type and a body. `destroy`: the connection is cut after the body is written;
 * `hold`: it is left open, silent, until the server closes.
 */
export type ServedBody = { status?: number; contentType?: string; body: string; destroy?: boolean; hold?: boolean };

/** What the server received. */
export type ReceivedRequest = { method: string; path: string; body: Record<string, unknown> };

export type BodyServer = {
  baseURL: string;
  requests: ReceivedRequest[];
  /** An SDK client for this server (`maxRetries: 0`, so a failure is seen once). */
  client(options?: { baseURL?: string }): OpenAI;
  close(): Promise<void>;
};

/** Serves `bodies` in order, one per request; a request past the last gets a 500. */
export async function startBodyServer(bodies: ServedBody[]): Promise<BodyServer> {
  const requests: ReceivedRequest[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: text ? JSON.parse(text) : {} });
      const served = bodies[next++];
      if (!served) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no more bodies"}}');
        return;
      }
      res.writeHead(served.status ?? 200, { 'content-type': served.contentType ?? 'text/event-stream' });
      if (served.destroy) {
        res.write(served.body, () => res.destroy());
        return;
      }
      if (served.hold) {
        res.write(served.body);
        return;
      }
      res.end(served.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}/v1`;
  return {
    baseURL,
    requests,
    client: (options) => new OpenAI({ apiKey: 'test', baseURL: options?.baseURL ?? baseURL, maxRetries: 0 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

/** An SSE body of `events`, each sent under its `type` as event name, as OpenAI sends them. */
export function sse(events: readonly Record<string, unknown>[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** An output item of a Responses stream, with the deltas it streams in. */
export type StreamedItem =
  | { type: 'message'; text: string[] }
  | { type: 'function_call'; call_id?: string; name: string; args: string[] }
  | { type: 'reasoning'; id: string; summary: string[]; encrypted_content?: string }
  | { type: string; id: string; [key: string]: unknown };

/** The whole output item a streamed item ends as. */
export function outputItem(item: StreamedItem, index: number): Record<string, unknown> {
  switch (item.type) {
    case 'message':
      return {
        type: 'message',
        id: `msg_${index}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: (item.text as string[]).join(''), annotations: [] }],
      };
    case 'function_call': {
      const call = item as Extract<StreamedItem, { type: 'function_call' }>;
      return {
        type: 'function_call',
        id: `fc_${index}`,
        ...(call.call_id !== undefined && { call_id: call.call_id }),
        name: call.name,
        arguments: call.args.join(''),
        status: 'completed',
      };
    }
    case 'reasoning': {
      const reasoning = item as Extract<StreamedItem, { type: 'reasoning' }>;
      return {
        type: 'reasoning',
        id: reasoning.id,
        summary: reasoning.summary.length ? [{ type: 'summary_text', text: reasoning.summary.join('') }] : [],
        ...(reasoning.encrypted_content !== undefined && { encrypted_content: reasoning.encrypted_content }),
      };
    }
    default:
      return item;
  }
}

/** Usage as OpenAI reports it. */
export function usage(input: number, output: number, cached = 0, reasoning = 0): Record<string, unknown> {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

/**
 * The events of one streamed response: `response.created`, then per item `output_item.added`, its deltas and
 * `output_item.done`, then the last event (`end`, default `response.completed`) with the whole output. `end:
 * 'none'` stops after the items, as a cut stream would.
 */
export function responseEvents(
  items: readonly StreamedItem[],
  options: {
    id?: string;
    end?: 'response.completed' | 'response.incomplete' | 'response.failed' | 'none';
    usage?: Record<string, unknown>;
    error?: Record<string, unknown>;
  } = {},
): Record<string, unknown>[] {
  const id = options.id ?? 'resp_1';
  const events: Record<string, unknown>[] = [];
  let seq = 0;
  const push = (event: Record<string, unknown>) => events.push({ ...event, sequence_number: seq++ });
  const base = { id, object: 'response', model: 'gpt-test', output: [] as unknown[] };
  push({ type: 'response.created', response: { ...base, status: 'in_progress' } });
  items.forEach((item, index) => {
    const whole = outputItem(item, index);
    const itemId = String(whole.id);
    if (item.type === 'function_call') {
      push({ type: 'response.output_item.added', output_index: index, item: { ...whole, arguments: '' } });
      for (const delta of (item as { args: string[] }).args)
        push({ type: 'response.function_call_arguments.delta', output_index: index, item_id: itemId, delta });
      push({
        type: 'response.function_call_arguments.done',
        output_index: index,
        item_id: itemId,
        arguments: whole.arguments,
      });
    } else if (item.type === 'message') {
      push({ type: 'response.output_item.added', output_index: index, item: { ...whole, content: [] } });
      for (const delta of (item as { text: string[] }).text)
        push({
          type: 'response.output_text.delta',
          output_index: index,
          item_id: itemId,
          content_index: 0,
          delta,
          logprobs: [],
        });
    } else if (item.type === 'reasoning') {
      push({ type: 'response.output_item.added', output_index: index, item: { ...whole, summary: [] } });
      for (const delta of (item as { summary: string[] }).summary)
        push({
          type: 'response.reasoning_summary_text.delta',
          output_index: index,
          item_id: itemId,
          summary_index: 0,
          delta,
        });
    } else {
      push({ type: 'response.output_item.added', output_index: index, item: whole });
    }
    push({ type: 'response.output_item.done', output_index: index, item: whole });
  });
  const end = options.end ?? 'response.completed';
  if (end === 'none') return events;
  const status = {
    'response.completed': 'completed',
    'response.incomplete': 'incomplete',
    'response.failed': 'failed',
  }[end];
  push({
    type: end,
    response: {
      ...base,
      status,
      output: items.map(outputItem),
      usage: options.usage ?? usage(10, 5),
      ...(end === 'response.incomplete' && { incomplete_details: { reason: 'max_output_tokens' } }),
      ...(options.error && { error: options.error }),
    },
  });
  return events;
}

/** A whole (non-streamed) response body. */
export function responseJson(
  items: readonly StreamedItem[],
  options: { id?: string; status?: string; usage?: Record<string, unknown>; error?: Record<string, unknown> } = {},
): ServedBody {
  return {
    contentType: 'application/json',
    body: JSON.stringify({
      id: options.id ?? 'resp_1',
      object: 'response',
      model: 'gpt-test',
      status: options.status ?? 'completed',
      output: items.map(outputItem),
      usage: options.usage ?? usage(10, 5),
      ...(options.error && { error: options.error }),
    }),
  };
}

/** A streamed response body from {@link responseEvents}. */
export function responseStream(...args: Parameters<typeof responseEvents>): ServedBody {
  return { body: sse(responseEvents(...args)) };
}
