import { checkWeatherTool } from '../../samples/testing/scripted-weather';

describe('samples/testing', () => {
  it('checks a tool through the scripted server, and its assertions pass', async () => {
    await expect(checkWeatherTool()).resolves.toBeUndefined();
  });
});
