import { runAgentLoop } from '../../src';
import type { OutputStandardSchema, RunAgentCallProps, RunAgentResponse, ToolDefinition } from '../../src';
import { createRunRecorder, exportRunAsTest } from '../../src/devtools';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { exportedProject } from './export-runners';

type Case = {
  stop: RunAgentResponse['stopReason'];
  turns: ScriptedTurn[];
  props?: Partial<RunAgentCallProps>;
  decisions?: RunAgentCallProps['decisions'];
};

const lookup = fakeTool('lookup', ({ call }) => ({ response: `found ${call.function.arguments}` }));
const broken = fakeTool('broken', () => {
  throw new Error('the disk is full');
});
const picky: ToolDefinition = {
  ...fakeTool('picky', () => ({ response: 'never' })),
  parseParams: () => ({ success: false, errorMessage: 'n: must be a number' }),
};
const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
const refund = fakeTool('refund', () => ({ response: 'refunded' }), { needsApproval: true });
const finish = fakeTool('finish', () => ({ response: 'finished', stop: true }));
const halt = new AbortController();
const halting = fakeTool('halt', () => {
  halt.abort();
  return { response: 'halting' };
});
const tools = [lookup, broken, picky, pay, refund, finish, halting];

const call = (id: string, name: string, args: object = {}) => ({ id, name, arguments: args });

/** A typed answer: `{ total: number }`. */
const totalOutput: OutputStandardSchema<{ total: number }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value) =>
      typeof (value as { total?: unknown } | null)?.total === 'number'
        ? { value: value as { total: number } }
        : { issues: [{ message: 'total: must be a number' }] },
  },
  jsonSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
};

/** A run that ends with each stop reason the loop has. */
const CASES: Case[] = [
  {
    stop: 'completed',
    turns: [
      {
        toolCalls: [
          call('l1', 'lookup', { q: 'a' }),
          call('b1', 'broken'),
          call('g1', 'ghost'),
          call('k1', 'picky', { n: 'x' }),
        ],
      },
      { text: 'Paying one, refunding none.', toolCalls: [call('p1', 'pay', { amount: 5 }), call('r1', 'refund')] },
      { text: 'Done: paid, not refunded.', usage: { prompt_tokens: 30, completion_tokens: 7 } },
    ],
    decisions: { p1: { approve: true }, r1: { approve: false, reason: 'no refunds' } },
  },
  { stop: 'interactive', turns: [{ text: 'I will pay.', toolCalls: [call('p1', 'pay', { amount: 9 })] }] },
  { stop: 'tool_stop', turns: [{ toolCalls: [call('l1', 'lookup'), call('f1', 'finish')] }] },
  { stop: 'error', turns: [{ toolCalls: [call('l1', 'lookup')] }, { status: 500, errorMessage: 'overloaded' }] },
  {
    stop: 'max_turns',
    turns: [{ toolCalls: [call('l1', 'lookup', { q: 1 })] }, { toolCalls: [call('l2', 'lookup', { q: 2 })] }],
    props: { maxRunAgentTimes: 2 },
  },
  {
    stop: 'budget',
    turns: [{ toolCalls: [call('l1', 'lookup'), call('l2', 'lookup')] }],
    props: { budget: { toolCalls: 1 } },
  },
  {
    stop: 'budget',
    turns: [
      { toolCalls: [call('l1', 'lookup')], usage: { prompt_tokens: 600, completion_tokens: 10 } },
      { text: 'more', usage: { prompt_tokens: 700, completion_tokens: 10 } },
    ],
    props: { budget: { inputTokens: 500 } },
  },
  {
    stop: 'aborted',
    turns: [{ toolCalls: [call('h1', 'halt')] }, { text: 'never read' }],
    props: { abortSignal: halt.signal },
  },
  {
    stop: 'timeout',
    turns: [{ toolCalls: [call('l1', 'lookup')] }, { text: 'late', delayMs: 10_000 }],
    props: { timeoutMs: 500 },
  },
  { stop: 'refusal', turns: [{ refusal: 'I cannot help with that.' }] },
  {
    // Every answer fails the typed output: no JSON, JSON of the wrong shape, the same in a fence.
    stop: 'output_invalid',
    turns: [
      { toolCalls: [call('l1', 'lookup', { q: 'total' })] },
      { text: 'The total is five.' },
      { text: '{"total":"five"}' },
      { text: '```json\n{"total":"5"}\n```' },
    ],
    props: { output: totalOutput },
  },
  {
    // A refused answer, then one that passes: the replay refuses the first and takes the second.
    stop: 'completed',
    turns: [{ text: '{"total":"five"}' }, { text: '{"total":5}' }],
    props: { output: totalOutput, outputRetries: 1 },
  },
];

async function recordRun(server: ScriptedServer, recorder: ReturnType<typeof createRunRecorder>, c: Case, i: number) {
  // A script of its own: a run that stops early leaves turns no other case may read.
  const session = server.session(c.turns);
  const props: RunAgentCallProps = {
    client: session.client(),
    body: { model: 'gpt-test', messages: [user(`case ${i}`)] },
    tools,
    runId: `case-${i}-${c.stop}`,
    ...c.props,
  };
  let result = await runAgentLoop({ ...props, ...recorder.hooks(props) });
  if (c.decisions) {
    const resume = { ...props, resumeFrom: result.state, decisions: c.decisions };
    result = await runAgentLoop({ ...resume, ...recorder.hooks(resume) });
  }
  recorder.finish(result);
  return result;
}

describe('exported tests pass as exported, under jest and under vitest', () => {
  it('exports a run of every stop reason; each file type-checks under strict and passes on both runners', async () => {
    const server = await startScriptedServer();
    const recorder = createRunRecorder();
    const files: Record<string, string> = {};
    try {
      for (const [i, c] of CASES.entries()) {
        const result = await recordRun(server, recorder, c, i);
        expect({ case: i, stop: result.stopReason }).toEqual({ case: i, stop: c.stop });
        const recorded = (await recorder.source.recorded(result.state.runId))!;
        files[`run-${i}-${c.stop}.jest.test.ts`] = exportRunAsTest(recorded);
        files[`run-${i}-${c.stop}.vitest.test.ts`] = exportRunAsTest(recorded, { runner: 'vitest' });
      }
    } finally {
      await server.close();
    }
    expect(files['run-0-completed.vitest.test.ts']).toContain("import { describe, expect, it } from 'vitest';");
    expect(files['run-0-completed.jest.test.ts']).not.toContain('vitest');

    const project = exportedProject(files);
    try {
      const [jestTypes, vitestTypes] = await Promise.all([project.typeCheck('jest'), project.typeCheck('vitest')]);
      expect({ code: jestTypes.code, output: jestTypes.output }).toEqual({ code: 0, output: '' });
      expect({ code: vitestTypes.code, output: vitestTypes.output }).toEqual({ code: 0, output: '' });
      const jest = await project.jest();
      expect({ code: jest.code, output: jest.code ? jest.output : '' }).toEqual({ code: 0, output: '' });
      expect(jest.output).toContain(`Tests:       ${CASES.length} passed, ${CASES.length} total`);
      const vitest = await project.vitest();
      expect({ code: vitest.code, output: vitest.code ? vitest.output : '' }).toEqual({ code: 0, output: '' });
      expect(vitest.output).toMatch(new RegExp(`Tests\\s+${CASES.length} passed`));
    } finally {
      project.remove();
    }
  }, 300_000);
});
