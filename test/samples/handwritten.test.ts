import { askAboutWeather, weatherTool } from '../../samples/handwritten/weather-tool';
import { startScriptedServer } from '../../src/testing';
import { sentTools } from '../helpers/wire-under-test';

describe('samples/handwritten (the hand-written tool in docs/writing-tools.md)', () => {
  it('answers through the hand-written tool, after correcting bad arguments', async () => {
    const server = await startScriptedServer({
      turns: [
        { toolCalls: [{ name: 'get_weather', arguments: { town: 'Paris' } }] },
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
        { text: 'It is 15°C in Paris.' },
      ],
    });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await expect(askAboutWeather(server.client(), 'Weather in Paris?')).resolves.toBe('It is 15°C in Paris.');
      const toolMessages = server.requests[2].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(toolMessages).toEqual(['city: must be a non-empty string', 'Paris: 15°C']);
      expect(sentTools(server.requests[0])).toEqual([weatherTool.schema]);
    } finally {
      write.mockRestore();
      log.mockRestore();
      await server.close();
    }
  });
});
