import { randomBytes, randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunAgentResponse } from '../../src/agentCall/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { getGc, settledHeapUsed } from '../helpers/gc';
import { assertValidRequests } from '../helpers/history';
import { watchProcess } from '../helpers/host-process';
import { fakeTool, user } from '../helpers/tools';

const RUNS = 200;

type Probe = { run: number; token: string };

/**
 * Start RUNS loops at once against one server, each with its own session script, client and tool. Each run's model
 * calls the tool with a token only that run knows, then checks (server side) that the tool message it got back is its
 * own before answering with it.
 */
async function concurrentRuns(server: ScriptedServer, padding = 0) {
  const runs = Array.from({ length: RUNS }, (_, run) => {
    const token = randomUUID();
    const session = server.session([
      { toolCalls: [{ name: 'lookup', arguments: { run, token } }], chunkDelayMs: run % 3 },
      (request) => {
        const last = request.body.messages.at(-1) as { role: string; content: string };
        return {
          text:
            last.role === 'tool' && last.content === `${run}:${token}`
              ? `final ${run}:${token}`
              : `cross-talk in run ${run}`,
        };
      },
    ]);
    const tool = fakeTool<Probe>('lookup', async ({ params }) => {
      // Interleave the runs' tool phases, so a shared-state bug would mix them.
      await new Promise((resolve) => setTimeout(resolve, (run * 7) % 11));
      return {
        response: `${params.run}:${params.token}`,
        ...(padding
          ? { assistantMessages: [{ role: 'assistant' as const, content: randomBytes(padding / 2).toString('hex') }] }
          : {}),
      };
    });
    return { run, token, session, tool };
  });
  const results = await Promise.all(
    runs.map(({ run, session, tool }) =>
      runAgentLoop({ client: session.client(), body: { model: 'm', messages: [user(`run ${run}`)] }, tools: [tool] }),
    ),
  );
  return { runs, results };
}

describe('load: 200 concurrent runs on one server', () => {
  /** Set once a full round has run in this file: module loading, JIT and undici's pools are warmed up. */
  let warmedUp = false;

  it('gives every run its own arguments and its own final answer, with every request valid', async () => {
    const server = await startScriptedServer();
    const watch = watchProcess();
    try {
      const { runs, results } = await concurrentRuns(server);
      runs.forEach(({ run, token, session, tool }, i) => {
        const result: RunAgentResponse = results[i];
        expect(result.stopReason).toBe('completed');
        expect(tool.calls.map((c) => c.params)).toEqual([{ run, token }]);
        expect(tool.calls[0].messages).toEqual([user(`run ${run}`)]);
        expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: `final ${run}:${token}` });
        expect(session.requests).toHaveLength(2);
        expect(session.pending()).toBe(0);
      });
      expect(server.requests).toHaveLength(RUNS * 2);
      assertValidRequests(server.requests);
      warmedUp = true;
    } finally {
      await server.close();
      await watch.stop();
    }
    expect(watch.unhandledRejections).toEqual([]);
    expect(watch.warnings).toEqual([]);
  });

  it('returns the heap to near where it started once the runs are over', async () => {
    // Each run's result holds 100 KB (a tool-produced message, random so V8 cannot share it between runs), so 200
    // runs hold 20 MB: anything that kept finished runs alive shows up far above the bound (checked: keeping each
    // run's assistantMessages in a module-level array makes this fail with ~20 MB of growth).
    const PADDING = 100_000;
    // Measured after a warm-up round (the test above, or one here when run alone): module loading, JIT code and
    // undici's pools are one-time costs, not growth.
    const round = async () => {
      const server = await startScriptedServer();
      try {
        const { results } = await concurrentRuns(server, PADDING);
        expect(results.every((r) => r.stopReason === 'completed')).toBe(true);
        expect(results.every((r) => (r.assistantMessages.at(-2)?.content as string).length === PADDING)).toBe(true);
      } finally {
        await server.close();
      }
    };
    if (!warmedUp) await round();
    const before = await settledHeapUsed();
    await round();
    const after = await settledHeapUsed();

    // With a real gc the steady state is within a couple of MB; without one, only a generous bound is honest.
    const bound = getGc() ? 8 * 1024 * 1024 : 50 * 1024 * 1024;
    expect(after - before).toBeLessThan(bound);
  });

  it('adds no listener per turn to one long-lived AbortSignal: no MaxListenersExceededWarning over 30 turns', async () => {
    const server = await startScriptedServer();
    const watch = watchProcess();
    const controller = new AbortController();
    const listenerCounts: number[] = [];
    try {
      for (let i = 0; i < 30; i++)
        server.enqueue({ text: `step ${i}`, toolCalls: [{ name: 'step', arguments: { i } }] });
      server.enqueue({ text: 'done' });
      const tool = fakeTool<{ i: number }>('step', ({ params }) => {
        listenerCounts.push(getEventListeners(controller.signal, 'abort').length);
        return { response: `ok ${params.i}` };
      });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [tool],
        abortSignal: controller.signal,
        isAborted: () => false,
        toolTimeoutMs: 5_000,
        maxRunAgentTimes: 31,
      });
      expect(result.stopReason).toBe('completed');
      expect(tool.calls).toHaveLength(30);
      // The run links to the caller's signal once; requests and tools hang off its own child signals.
      expect(new Set(listenerCounts)).toEqual(new Set([1]));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      await server.close();
      await watch.stop();
    }
    expect(watch.warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    expect(watch.unhandledRejections).toEqual([]);
  });
});
