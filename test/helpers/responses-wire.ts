/**
 * Jest setup file of the `responses-wire` project: `wire: 'auto'` (the default) picks the Responses API for every
 * client that has `responses.create`, whatever its base URL, so the loop's suites also run over `/v1/responses`. An
 * explicit `wire: 'chat'` stays on Chat Completions, and a stand-in client without `responses.create` stays on the
 * only wire it has.
 */
import type * as WireModule from '../../src/llm/wires/wire';

const wireModule = require.resolve('../../src/llm/wires/wire');

jest.doMock(wireModule, () => {
  const actual = jest.requireActual<typeof WireModule>(wireModule);
  const chooseWire: typeof WireModule.chooseWire = (wire, client) =>
    wire === undefined || wire === 'auto' ? (actual.hasResponses(client) ? 'responses' : 'chat') : wire;
  return { ...actual, chooseWire };
});

Reflect.set(globalThis, '__agentcallWireUnderTest', 'responses');
