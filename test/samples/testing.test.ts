import { checkWeatherTool } from '../../samples/testing/scripted-weather';
import { checkRecordedReplay } from '../../samples/testing/replay-recorded';

describe('samples/testing', () => {
  it('checks a tool through the scripted server, and its assertions pass', async () => {
    await expect(checkWeatherTool()).resolves.toBeUndefined();
  });
});

describe('samples/testing/replay-recorded', () => {
  it('replays recorded SSE files through the loop, and its assertions pass', async () => {
    await expect(checkRecordedReplay()).resolves.toBeUndefined();
  });
});
