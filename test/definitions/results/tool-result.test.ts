import { isToolResult, toolResult } from '../../../src/definitions/results/tool-result';

describe('toolResult', () => {
  it('carries the loop controls next to the response text', () => {
    const usages = [{ moduleName: 'search', totalPoints: 2 }];
    const result = toolResult('found 3', { usages, stop: true });
    expect(result).toEqual({ response: 'found 3', usages, stop: true });
    expect(isToolResult(result)).toBe(true);
  });

  it('formats a non-string response like a plain return value', () => {
    expect(toolResult({ ok: true }).response).toBe('{"ok":true}');
    expect(toolResult(undefined).response).toBe('');
  });

  it('has stop and interactive shortcuts', () => {
    expect(toolResult.stop('bye')).toEqual({ response: 'bye', stop: true });
    const interactive = { type: 'confirm', question: 'Pay 120 EUR?' };
    expect(toolResult.interactive(interactive)).toEqual({ response: '', interactive });
    expect(toolResult.interactive(interactive, 'waiting')).toEqual({ response: 'waiting', interactive });
  });

  it('is told apart from returned objects that only look like results', () => {
    expect(isToolResult({ response: 'x', stop: true })).toBe(false);
    expect(isToolResult(null)).toBe(false);
    expect(JSON.stringify(toolResult('x'))).toBe('{"response":"x"}');
  });
});
