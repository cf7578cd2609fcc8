import fc from 'fast-check';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { ToolDefinition, ToolParseResult } from '../../src/toolCall/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { user } from '../helpers/tools';

type Args = { n: number; fail: number };
type ToolSpec = { cap: number | undefined; attempts: number; repair: 'none' | 'fix' | 'break' };
type CallSpec = { tool: number; valid: boolean; failures: number };

const TOOL_COUNT = 3;
const toolName = (index: number) => (index < TOOL_COUNT ? `t${index}` : 'unknown_tool');

/** `n` and `fail` must be whole numbers: the only arguments a tool may ever run with. */
const parseParams = (raw: string): ToolParseResult<Args> => {
  const value = JSON.parse(raw || '{}') as Partial<Args>;
  return Number.isInteger(value.n) && Number.isInteger(value.fail)
    ? { success: true, data: { n: value.n!, fail: value.fail! } }
    : { success: false, errorMessage: `Invalid arguments:\nn: must be a whole number` };
};

/** What the tools saw across one run. */
class Observed {
  readonly runs = new Map<number, number>();
  readonly unvalidated: unknown[] = [];
  readonly mostPerTool = new Map<string, number>();
  mostTotal = 0;
  private readonly now = new Map<string, number>();
  private total = 0;

  async hold(name: string): Promise<void> {
    this.now.set(name, (this.now.get(name) ?? 0) + 1);
    this.mostPerTool.set(name, Math.max(this.mostPerTool.get(name) ?? 0, this.now.get(name)!));
    this.mostTotal = Math.max(this.mostTotal, ++this.total);
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    this.now.set(name, this.now.get(name)! - 1);
    this.total--;
  }
}

function buildTool(index: number, spec: ToolSpec, seen: Observed): ToolDefinition<Args> {
  const name = toolName(index);
  return {
    schema: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
    parseParams,
    execute: async ({ params }) => {
      // Checked here, not by the parser: whatever reaches execute must be what a parser accepted.
      if (!Number.isInteger(params?.n) || !Number.isInteger(params?.fail)) seen.unvalidated.push(params);
      const runs = (seen.runs.get(params.n) ?? 0) + 1;
      seen.runs.set(params.n, runs);
      await seen.hold(name);
      if (runs <= params.fail) throw new Error(`run ${runs} of call ${params.n} failed`);
      return { response: `ok ${params.n}` };
    },
    ...(spec.cap !== undefined && { concurrency: spec.cap }),
    ...(spec.attempts > 1 && { idempotent: true, retry: { attempts: spec.attempts } }),
    ...(spec.repair !== 'none' && {
      repairArguments: ({ raw }) => {
        const { n, fail } = JSON.parse(raw) as { n: string; fail: number };
        return spec.repair === 'fix' ? JSON.stringify({ n: Number(n.slice(1)), fail }) : JSON.stringify({ n, fail });
      },
    }),
  };
}

const toolSpec: fc.Arbitrary<ToolSpec> = fc.record({
  cap: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  attempts: fc.integer({ min: 1, max: 3 }),
  repair: fc.constantFrom('none' as const, 'fix' as const, 'break' as const),
});
const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  tool: fc.integer({ min: 0, max: TOOL_COUNT }),
  valid: fc.boolean(),
  failures: fc.integer({ min: 0, max: 3 }),
});

describe('property: tool calls under caps, retries and repairs', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('answers every call exactly once, in order, within every cap, and runs nothing unvalidated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(toolSpec, { minLength: TOOL_COUNT, maxLength: TOOL_COUNT }),
        fc.array(callSpec, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 6 }),
        async (toolSpecs, callSpecs, toolConcurrency) => {
          const seen = new Observed();
          const tools = toolSpecs.map((spec, i) => buildTool(i, spec, seen));
          const toolCalls = callSpecs.map((spec, n) => ({
            id: `call${n}`,
            name: toolName(spec.tool),
            arguments: JSON.stringify({ n: spec.valid ? n : `x${n}`, fail: spec.failures }),
          }));
          const session = server.session([{ toolCalls }, { text: 'done' }]);
          const result = await runAgentLoop({
            client: session.client(),
            body: { model: 'm', messages: [user('go')] },
            tools,
            toolConcurrency,
          });

          expect(result.stopReason).toBe('completed');
          const answers = result.completeMessages.filter((m) => m.role === 'tool');
          expect(answers.map((m) => m.tool_call_id)).toEqual(toolCalls.map((c) => c.id));
          assertValidHistory(result.completeMessages);
          expect(seen.unvalidated).toEqual([]);
          expect(seen.mostTotal).toBeLessThanOrEqual(toolConcurrency);
          toolSpecs.forEach((spec, i) => {
            if (spec.cap !== undefined) expect(seen.mostPerTool.get(toolName(i)) ?? 0).toBeLessThanOrEqual(spec.cap);
          });
          callSpecs.forEach((spec, n) => {
            const tool = toolSpecs[spec.tool];
            const runs =
              !tool || (!spec.valid && tool.repair !== 'fix') ? 0 : Math.min(spec.failures + 1, tool.attempts);
            expect([n, seen.runs.get(n) ?? 0]).toEqual([n, runs]);
            const text = String(answers[n].content);
            if (runs > 0 && spec.failures < tool.attempts) expect(text.endsWith(`ok ${n}`)).toBe(true);
            if (runs > 0 && !spec.valid) expect(text).toMatch(/^Note: the arguments of this call were invalid/);
          });
        },
      ),
      { numRuns: 30 },
    );
  });
});
