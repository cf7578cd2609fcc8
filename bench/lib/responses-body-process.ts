import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Responses API model in its own process, so a benchmark measures only the client's CPU: every `POST` gets the
 * same streamed response, built once: `chars` characters of text in 4-character `response.output_text.delta`
 * events, then a `function_call` whose arguments come in 4-character `response.function_call_arguments.delta`
 * events, then `response.completed`, in OpenAI's published event shapes. `chars` is the first argument.
 */
function responseBody(chars: number): Buffer {
  const events: string[] = [];
  let sequence = 0;
  const push = (event: Record<string, unknown>) =>
    events.push(`event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
  const message = { type: 'message', id: 'msg_0', role: 'assistant', status: 'in_progress', content: [] };
  const args = JSON.stringify({ key: 'y'.repeat(chars) });
  const call = {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_s',
    name: 'lookup',
    arguments: '',
    status: 'in_progress',
  };
  push({
    type: 'response.created',
    response: { id: 'resp_bench', object: 'response', status: 'in_progress', output: [] },
  });
  push({ type: 'response.output_item.added', output_index: 0, item: message });
  for (let i = 0; i < chars; i += 4)
    push({
      type: 'response.output_text.delta',
      output_index: 0,
      item_id: 'msg_0',
      content_index: 0,
      delta: 'xxxx',
      logprobs: [],
    });
  push({ type: 'response.output_item.added', output_index: 1, item: call });
  for (let i = 0; i < args.length; i += 4)
    push({
      type: 'response.function_call_arguments.delta',
      output_index: 1,
      item_id: 'fc_1',
      delta: args.slice(i, i + 4),
    });
  const output = [
    { ...message, status: 'completed', content: [{ type: 'output_text', text: 'x'.repeat(chars), annotations: [] }] },
    { ...call, arguments: args, status: 'completed' },
  ];
  const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2 };
  push({
    type: 'response.completed',
    response: { id: 'resp_bench', object: 'response', status: 'completed', output, usage },
  });
  return Buffer.from(events.join(''));
}

const body = responseBody(Number(process.argv[2] ?? 20_000));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
