import { checkWeatherTool } from '../../samples/testing/scripted-weather';
import { checkRecordedReplay } from '../../samples/testing/replay-recorded';
import { checkBothWires } from '../../samples/testing/both-wires';

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

describe('samples/testing/both-wires', () => {
  it('answers Chat Completions and the Responses API from one script, and its assertions pass', async () => {
    await expect(checkBothWires()).resolves.toBeUndefined();
  });
});
