import { plainToInstance } from 'class-transformer';
import type { RunSetup } from '../../src/bullmq';
import { OrderDto } from '../fixtures/order-dtos';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

const ORDER = { customer: 'Ada', items: [{ sku: 'A1', qty: 2 }], address: { street: '1 Main St' } };

describe('a queued run with a typed answer', () => {
  const bed = useQueueTestbed();

  it('keeps the validated answer in the record, after a tool turn and a refused answer', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'Ada ordered two A1.' }));
    bed.server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
      { text: JSON.stringify({ ...ORDER, coupon: 'X' }) },
      { text: JSON.stringify(ORDER) },
    );
    const runs = bed.open();
    const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [lookup], output: OrderDto });
    await runs.worker({ setup }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('What did Ada order?')] } });

    const record = await runs.wait(runId);
    expect(record.status).toBe('completed');
    expect(record.output).toEqual(ORDER);
    expect(record.text).toBe(JSON.stringify(ORDER));
    // The same from any process (this wait was handed the record by the worker beside it), and the class back with
    // class-transformer.
    expect(record).toStrictEqual(await bed.open().get(runId));
    expect(plainToInstance(OrderDto, record.output)).toBeInstanceOf(OrderDto);
    // The schema went out with every request, the feedback with the one after the refused answer.
    expect(bed.server.requests.map((r) => (r.body.response_format as { type?: string })?.type)).toEqual([
      'json_schema',
      'json_schema',
      'json_schema',
    ]);
  });

  it('fails the run with output_invalid and no output when no answer passes', async () => {
    bed.server.enqueue({ text: 'not JSON' }, { text: '{"customer": 1}' });
    const runs = bed.open();
    const setup = async (): Promise<RunSetup> => ({
      client: bed.server.client(),
      tools: [],
      output: OrderDto,
      outputRetries: 1,
    });
    await runs.worker({ setup }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('Order?')] } });

    const record = await runs.wait(runId);
    expect(record.status).toBe('failed');
    expect(record.stopReason).toBe('output_invalid');
    expect(record.error?.name).toBe('OutputValidationError');
    expect(record.error?.message).toContain('customer');
    expect(record.output).toBeUndefined();
  });
});
