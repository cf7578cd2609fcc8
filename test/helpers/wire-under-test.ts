/**
 * The wire `wire: 'auto'` resolves to for the scripted server's clients in this jest project: `'responses'` in the
 * `responses-wire` project (its setup file says so), `'chat'` everywhere else. For the few assertions whose numbers
 * are the wire's own (event positions, tool fields a wire must send explicitly); everything else is the same.
 */
import type { RecordedRequest } from '../../src/testing';

export const WIRE_UNDER_TEST_KEY = '__agentcallWireUnderTest';

export function wireUnderTest(): 'chat' | 'responses' {
  return Reflect.get(globalThis, WIRE_UNDER_TEST_KEY) === 'responses' ? 'responses' : 'chat';
}

/** The value for the wire under test. */
export function onWire<T>(values: { chat: T; responses: T }): T {
  return values[wireUnderTest()];
}

/**
 * The tools a request sent, as the chat wire sends them. The Responses wire must send `strict: false` explicitly
 * (a missing `strict` means true there); on the chat wire that is the default a missing `strict` already means,
 * so it is left out here and nothing else changes. A strict tool keeps its `strict: true` on both.
 */
export function sentTools(request: RecordedRequest): RecordedRequest['body']['tools'] {
  const tools = request.body.tools;
  if (request.wire !== 'responses' || tools === undefined) return tools;
  return tools.map((tool) => {
    if (tool.type !== 'function' || tool.function.strict !== false) return tool;
    const { strict: _strict, ...fn } = tool.function;
    return { ...tool, function: fn };
  });
}
