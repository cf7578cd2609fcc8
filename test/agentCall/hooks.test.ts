import { runAgentLoop } from '../../src/run-agent-loop';
import type { ChildrenInteractiveParams, RunAgentCallProps, RunAgentResponse } from '../../src/agentCall/type';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

/** Every hook the loop calls; each must be an observer that cannot change or end a run. */
const HOOKS = [
  'onStreaming',
  'onReasoning',
  'onToolCall',
  'onToolParam',
  'onAfterToolCall',
  'usagePush',
  'onToolCompress',
  'onAfterCompressContext',
  'onRequestEnd',
] as const;
type HookName = (typeof HOOKS)[number];

const longHistory: ChatCompletionMessageParam[] = Array.from({ length: 12 }, (_, i) => [
  user(`question ${i} ${'x'.repeat(400)}`),
  { role: 'assistant' as const, content: `answer ${i} ${'y'.repeat(400)}` },
]).flat();

/** A paused run to resume: the model asked `ask` (call p1) and waits for the user's answer. */
function pausedAt(history: ChatCompletionMessageParam[]): ChildrenInteractiveParams {
  return {
    childrenResponse: { type: 'userInput', question: 'Which city?' },
    toolParams: {
      toolCallId: 'p1',
      memoryRequestMessages: [
        ...history,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'p1', type: 'function', function: { name: 'ask', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'p1', content: 'Asked the user' },
      ],
    },
  };
}

/** One run that makes every hook fire: compression, reasoning, text, a streamed call, a shortened tool response. */
function scenario(hook: HookName): {
  turns: ScriptedTurn[];
  props: Partial<RunAgentCallProps>;
  history: ChatCompletionMessageParam[];
} {
  const toolTurn: ScriptedTurn = {
    reasoning: 'Thinking it over.',
    text: 'Let me look.',
    toolCalls: [{ id: 't1', name: 'lookup', argumentChunks: ['{"key":', '"a"}'] }],
  };
  if (hook === 'onAfterCompressContext') {
    return {
      history: longHistory,
      turns: [{ text: 'Twelve questions about x.' }, toolTurn, { text: 'All done.' }],
      props: { compression: { maxContext: 2000, reservedTokens: 0 } },
    };
  }
  return { history: [], turns: [toolTurn, { text: 'All done.' }], props: { maxToolResponseTokens: 5 } };
}

function failing(kind: 'throw' | 'reject', hook: HookName): () => unknown {
  const error = new Error(`${hook} broke`);
  return kind === 'throw'
    ? () => {
        throw error;
      }
    : () => Promise.reject(error);
}

describe('hooks are observers', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  async function run(
    hook: HookName,
    resumed: boolean,
    extra: Partial<RunAgentCallProps>,
  ): Promise<{ result: RunAgentResponse; fired: number }> {
    const { turns, props, history } = scenario(hook);
    // Each run its own server, so the ids it makes (the Responses route numbers its items) are the same every run.
    const own = await startScriptedServer();
    const session = own.session(turns);
    let fired = 0;
    const counting = (extra[hook] as ((e: unknown) => unknown) | undefined) ?? (() => undefined);
    const result = await runAgentLoop({
      client: session.client(),
      body: { model: 'm', messages: [...history, user('go')] },
      tools: [fakeTool('lookup', () => ({ response: 'word '.repeat(200) })), fakeTool('ask', () => ({ response: '' }))],
      ...props,
      ...(resumed
        ? {
            childrenInteractiveParams: pausedAt([...history, user('go')]),
            handleInteractiveTool: async () => ({ response: 'Oslo', usages: [{ moduleName: 'ask_user' }] }),
          }
        : {}),
      ...extra,
      [hook]: (e: unknown) => {
        fired++;
        return counting(e);
      },
    });
    await own.close();
    return { result, fired };
  }

  describe.each([
    ['a fresh run', false],
    ['a resumed run', true],
  ])('on %s', (_label, resumed) => {
    it.each(HOOKS.flatMap((hook) => (['throw', 'reject'] as const).map((kind) => [hook, kind] as const)))(
      '%s that does %s changes nothing and is reported to onHookError',
      async (hook, kind) => {
        const baseline = await run(hook, resumed, {});
        expect(baseline.fired).toBeGreaterThan(0);
        const reported: { hook: string; error: unknown }[] = [];
        const broken = await run(hook, resumed, {
          [hook]: failing(kind, hook),
          onHookError: (e) => {
            reported.push(e);
            throw new Error('the reporter fails too');
          },
        });
        await new Promise((resolve) => setImmediate(resolve));
        expect(broken.result.stopReason).toBe('completed');
        expect(broken.result.error).toBeUndefined();
        expect(broken.result.completeMessages).toEqual(baseline.result.completeMessages);
        expect(broken.result.text).toBe('All done.');
        expect(broken.fired).toBe(baseline.fired);
        expect(reported).toHaveLength(broken.fired);
        expect(reported.every((e) => e.hook === hook && (e.error as Error).message === `${hook} broke`)).toBe(true);
      },
    );
  });

  it('a rejecting hook without onHookError leaves no unhandled rejection behind', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { result } = await run('onStreaming', false, { onStreaming: failing('reject', 'onStreaming') });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(result.stopReason).toBe('completed');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
