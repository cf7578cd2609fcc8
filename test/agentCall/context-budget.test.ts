import { historyLimit, reservedTokens, toolResponseBudget } from '../../src/agentCall/context/context-budget';

describe('compression budgets', () => {
  it('reserves 8000 tokens for the answer, or a quarter of a small context', () => {
    expect(reservedTokens({ maxContext: 128_000 })).toBe(8000);
    expect(reservedTokens({ maxContext: 4000 })).toBe(1000);
    expect(reservedTokens({ maxContext: 4000, reservedTokens: 0 })).toBe(0);
  });

  it('compresses the history past the threshold of what is left after the reserve', () => {
    expect(historyLimit({ maxContext: 10_000, reservedTokens: 0 })).toBe(8000);
    expect(historyLimit({ maxContext: 10_000, reservedTokens: 2000, threshold: 0.5 })).toBe(4000);
  });

  it('gives no budget when nothing limits tool responses', () => {
    expect(toolResponseBudget({ historyTokens: 10, callCount: 1 })).toBeUndefined();
  });

  it('shares the free context among the turn calls, capped at half the context and by the explicit cap', () => {
    const compression = { maxContext: 10_000, reservedTokens: 0 };
    expect(toolResponseBudget({ compression, historyTokens: 0, callCount: 1 })).toBe(5000);
    expect(toolResponseBudget({ compression, historyTokens: 6000, callCount: 2 })).toBe(2000);
    expect(toolResponseBudget({ compression, historyTokens: 6000, callCount: 2, maxToolResponseTokens: 500 })).toBe(
      500,
    );
    expect(toolResponseBudget({ maxToolResponseTokens: 300, historyTokens: 0, callCount: 3 })).toBe(300);
  });

  it('keeps a readable minimum when the context is nearly full', () => {
    expect(
      toolResponseBudget({ compression: { maxContext: 10_000, reservedTokens: 0 }, historyTokens: 9990, callCount: 4 }),
    ).toBe(64);
  });
});
