import { toolsFrom } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { CatalogueTools, chargeTool, shop, type PaymentsApi } from '../../samples/tool-safety/safe-tools';

describe('samples/tool-safety/safe-tools', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('retries a search that got a 503, caps searches at 2, and repairs a quoted amount before charging once', async () => {
    let inFlight = 0;
    let most = 0;
    const searched: string[] = [];
    const catalogue = {
      search: async (query: string) => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        searched.push(query);
        // The first search for "lamp" meets a 503; the retry finds it.
        if (query === 'lamp' && searched.filter((q) => q === 'lamp').length === 1) throw new Error('HTTP 503');
        return `3 results for ${query}`;
      },
    };
    const charges = new Map<string, number>();
    const payments: PaymentsApi = {
      charge: async (orderId, cents, key) => {
        charges.set(key, cents);
        return `charged ${cents} cents for ${orderId}`;
      },
    };
    server.enqueue(
      {
        toolCalls: ['lamp', 'desk', 'chair', 'rug'].map((query, i) => ({
          id: `s${i}`,
          name: 'search',
          arguments: { query },
        })),
      },
      { toolCalls: [{ id: 'p1', name: 'charge', arguments: '{"orderId":"o-7","cents":"1250"}' }] },
      { text: 'Ordered.' },
    );
    const tools = [...toolsFrom(new CatalogueTools(catalogue)), chargeTool(payments)];
    const result = await shop(server.client(), tools, 'Buy a lamp');

    expect(result.stopReason).toBe('completed');
    expect(most).toBe(2);
    expect(searched.filter((q) => q === 'lamp')).toHaveLength(2);
    const answers = result.completeMessages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(answers.slice(0, 4)).toEqual(['lamp', 'desk', 'chair', 'rug'].map((q) => `3 results for ${q}`));
    expect(answers[4]).toBe(
      'Note: the arguments of this call were invalid and were repaired before it ran, to {"orderId":"o-7","cents":1250}\ncharged 1250 cents for o-7',
    );
    expect([...charges.values()]).toEqual([1250]);
  });
});
