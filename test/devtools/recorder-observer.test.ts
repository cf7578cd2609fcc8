import { runAgentLoop } from '../../src';
import type { RunAgentCallProps } from '../../src';
import { createRunRecorder } from '../../src/devtools';
import { startScriptedServer } from '../../src/testing';
import type { ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

const PAGE = { offset: 0, limit: 100, maxChars: 4000 };

describe('the in-process recorder observes the run, beside the app’s hooks', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  /** Two turns: reasoning, text and a long tool result cut for the model, then an answer. */
  const script = () =>
    server.enqueue(
      { reasoning: 'Thinking.', text: 'Looking.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'x' } }] },
      { text: 'Done.' },
    );
  const lookup = () => fakeTool('lookup', () => ({ response: 'found it '.repeat(200) }));

  /** The recorder's whole view of one run, with what may differ between two runs of the same script left out. */
  async function recordedRun(hooks: Partial<RunAgentCallProps>, reported: string[] = []) {
    const recorder = createRunRecorder();
    script();
    const props: RunAgentCallProps = {
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [lookup()],
      maxToolResponseTokens: 20,
      onHookError: ({ hook }) => void reported.push(hook),
      ...hooks,
    };
    const result = await runAgentLoop({ ...props, ...recorder.hooks(props) });
    expect(result.stopReason).toBe('completed');
    const runId = result.state.runId;
    const page = await recorder.source.page(runId, PAGE);
    const { runId: _, ...recorded } = (await recorder.source.recorded(runId))!;
    return {
      recorded,
      summary: { turns: page!.summary.turns, tokens: page!.summary.inputTokens, calls: page!.summary.toolCalls },
      tools: page!.items.flatMap((item) =>
        item.kind === 'tool' ? [{ outcome: item.outcome, modelResponse: item.modelResponse }] : [],
      ),
    };
  }

  it('records every event of a run whose every hook throws, as it records a run with no hooks', async () => {
    const fail = () => {
      throw new Error('hook bug');
    };
    const reported: string[] = [];
    const throwing = await recordedRun(
      {
        onStreaming: fail,
        onReasoning: fail,
        onToolCall: fail,
        onToolParam: fail,
        onAfterToolCall: fail,
        onRequestEnd: fail,
        onToolCompress: fail,
        usagePush: fail,
      },
      reported,
    );
    const quiet = await recordedRun({});

    expect(throwing).toEqual(quiet);
    expect(throwing.recorded.turns.map((turn) => [turn.reasoning, turn.text])).toEqual([
      ['Thinking.', 'Looking.'],
      ['', 'Done.'],
    ]);
    expect(throwing.recorded.turns[0].toolCalls).toEqual([{ id: 'c1', name: 'lookup', arguments: '{"q":"x"}' }]);
    expect(throwing.recorded.results.c1).toMatchObject({ name: 'lookup', outcome: 'ok' });
    expect(throwing.tools[0].modelResponse).toBeDefined();
    expect(throwing.summary.turns).toBe(2);
    expect(throwing.summary.tokens).toBeGreaterThan(0);
    // Each hook threw, was reported under its own name, and took nothing from the timeline.
    expect(new Set(reported)).toEqual(
      new Set([
        'onStreaming',
        'onReasoning',
        'onToolCall',
        'onToolParam',
        'onAfterToolCall',
        'onRequestEnd',
        'onToolCompress',
        'usagePush',
      ]),
    );
  });

  it('keeps a paused run resumable from the page although its hooks throw, signed under stateSecret', async () => {
    const resumed: unknown[] = [];
    const recorder = createRunRecorder({ resume: (run) => void resumed.push(run) });
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    server.enqueue({ toolCalls: [{ id: 'p1', name: 'pay', arguments: {} }] }, { text: 'Paid.' });
    const props: RunAgentCallProps = {
      client: server.client(),
      body: { model: 'm', messages: [user('pay')] },
      tools: [pay],
      stateSecret: 'a secret of the app, long enough',
      onToolCall: () => {
        throw new Error('hook bug');
      },
      onHookError: () => undefined,
    };
    const first = await runAgentLoop({ ...props, ...recorder.hooks(props) });
    expect(first.stopReason).toBe('interactive');
    const runId = first.state.runId;
    const page = await recorder.source.page(runId, PAGE);
    expect(page?.canDecide).toBe(true);
    expect(page?.pending.map((p) => p.callId)).toEqual(['p1']);

    await recorder.source.decide!(runId, { p1: { approve: true } });
    const [{ state, decisions }] = resumed as [{ state: RunAgentCallProps['resumeFrom']; decisions: never }];
    const second = await runAgentLoop({ ...props, resumeFrom: state, decisions, ...recorder.hooks(props) });
    expect(second.stopReason).toBe('completed');
    expect(pay.calls).toHaveLength(1);
  });
});
