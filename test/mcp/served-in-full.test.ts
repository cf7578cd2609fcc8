import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { IsNumber, IsString } from 'class-validator';
import { Ctx, Param, Tool, toolResult, toolsFrom, type ToolExecuteContext } from '../../src';
import { createMcpServer } from '../../src/mcp';

class Forecast {
  @Param({ description: 'City name' })
  @IsString()
  city!: string;

  @Param({ description: 'Temperature' })
  @IsNumber()
  celsius!: number;
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);

class ReportTools {
  @Tool({
    description: 'Forecast for a city',
    title: 'Weather forecast',
    annotations: { readOnlyHint: true, openWorldHint: true },
    output: Forecast,
  })
  forecast(@Param('city') city: string): Forecast {
    return { city, celsius: 21 };
  }

  @Tool({ description: 'A chart of the week' })
  chart(): unknown {
    return toolResult.content('The chart:', toolResult.image(PNG, 'image/png'));
  }

  @Tool({ description: 'Indexes three files' })
  index(@Ctx() ctx?: ToolExecuteContext): string {
    for (let done = 1; done <= 3; done++) ctx!.progress?.({ progress: done, total: 3, message: `file ${done}` });
    ctx!.log?.('info', { indexed: 3 });
    return 'indexed';
  }
}

async function connect() {
  const server = createMcpServer(toolsFrom(new ReportTools()), { name: 'reports', version: '1.0.0' });
  const client = new Client({ name: 'test', version: '0.0.1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

describe('createMcpServer serves what the decorators declare', () => {
  it('lists title, annotations and the output schema of a declared result class', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    const forecast = tools.find((tool) => tool.name === 'forecast')!;
    expect(forecast.title).toBe('Weather forecast');
    expect(forecast.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(forecast.outputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
    });
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).toEqual({ city: 'Oslo', celsius: 21 });
    expect(result.content).toEqual([{ type: 'text', text: '{"city":"Oslo","celsius":21}' }]);
    await close();
  });

  it('answers with image content made by toolResult, the text beside it', async () => {
    const { client, close } = await connect();
    const result = await client.callTool({ name: 'chart', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'The chart:' },
      { type: 'image', data: Buffer.from(PNG).toString('base64'), mimeType: 'image/png' },
    ]);
    await close();
  });

  it('sends ctx.progress as progress notifications and ctx.log as log messages', async () => {
    const { client, close } = await connect();
    const logged: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logged.push(notification.params.data);
    });
    const progress: unknown[] = [];
    const result = await client.callTool(
      { name: 'index', arguments: {} },
      { onprogress: (report) => progress.push(report) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'indexed' }]);
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'file 1' },
      { progress: 2, total: 3, message: 'file 2' },
      { progress: 3, total: 3, message: 'file 3' },
    ]);
    expect(logged).toEqual([{ indexed: 3 }]);
    await close();
  });
});
