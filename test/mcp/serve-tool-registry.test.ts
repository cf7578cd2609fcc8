import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AgentToolsModule } from '../../src/nestjs';
import { McpController } from '../../samples/mcp/mcp.controller';
import { CalculatorTools, FakeWeatherDataSource, WeatherDataSource, WeatherTools } from '../../samples/tools';

@Module({
  imports: [AgentToolsModule.forRoot()],
  controllers: [McpController],
  providers: [CalculatorTools, WeatherTools, { provide: WeatherDataSource, useClass: FakeWeatherDataSource }],
})
class AppModule {}

describe('mcpHandlerForRegistry: a NestJS ToolRegistry served over Streamable HTTP from a controller', () => {
  it('lists every discovered @Tool provider and runs calls with their injected services', async () => {
    const app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
    const client = new Client({ name: 'nest-client', version: '0.0.1' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['calculate', 'get_forecast', 'get_weather', 'sum']);
      const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
      expect(weather.isError).toBeUndefined();
      expect(JSON.parse((weather.content as { text: string }[])[0].text)).toMatchObject({ city: 'Oslo' });
      const bad = await client.callTool({ name: 'sum', arguments: { numbers: [] } });
      expect(bad).toMatchObject({ isError: true });
      await transport.terminateSession();
    } finally {
      await client.close();
      await app.close();
    }
  });
});
