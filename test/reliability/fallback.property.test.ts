import fc from 'fast-check';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import type { RunAgentResponse } from '../../src/agentCall/type';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const SEED = 0xfa11bac;

/** How one model answers one request: it answers, or fails in a way that falls back, or in one that does not. */
type Outcome = 'ok' | 429 | 500 | 503 | 529 | 'in-stream' | 400 | 401 | 403;
const RETRYABLE: ReadonlySet<Outcome> = new Set<Outcome>([429, 500, 503, 529, 'in-stream']);

const scenarioArb = fc.integer({ min: 1, max: 3 }).chain((models) =>
  fc.record({
    models: fc.constant(models),
    /** Per request of the run: how each model in the chain would answer it, and how many tools it calls. */
    requests: fc.array(
      fc.record({
        outcomes: fc.array(fc.constantFrom<Outcome>('ok', 'ok', 'ok', 429, 500, 503, 529, 'in-stream', 400, 401, 403), {
          minLength: models,
          maxLength: models,
        }),
        calls: fc.integer({ min: 1, max: 3 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    /** Stop after this many model turns and resume from the saved state (JSON round trip); 0: one call. */
    splitAt: fc.integer({ min: 0, max: 3 }),
  }),
);

/**
 * What the rule says happens: each request goes to the model the run is on, then down the chain while the answer
 * is a retryable failure; the run stays on the model it reached; a failure that is not retryable, or one on the
 * last model, ends the run with that failure.
 */
function expected(models: number, requests: { outcomes: Outcome[] }[]) {
  const received = Array.from({ length: models }, () => [] as number[]);
  const answeredBy: number[] = [];
  let position = 0;
  let failure: Outcome | undefined;
  for (let r = 0; r < requests.length && failure === undefined; r++) {
    for (;;) {
      const outcome = requests[r].outcomes[position];
      received[position].push(r);
      if (outcome === 'ok') {
        answeredBy.push(position);
        break;
      }
      if (RETRYABLE.has(outcome) && position + 1 < models) {
        position++;
        continue;
      }
      failure = outcome;
      break;
    }
  }
  return { received, answeredBy, position, failure };
}

function reply(outcome: Outcome, request: number, last: boolean, calls: number): ScriptedReply {
  if (outcome === 'in-stream') return { text: 'never shown', streamErrorAt: 0 };
  if (outcome !== 'ok') return { status: outcome };
  if (last) return { text: `answer ${request}` };
  return {
    toolCalls: Array.from({ length: calls }, (_, i) => ({ name: 'lookup', arguments: { request, i } })),
  };
}

describe('model fallbacks (property-based)', () => {
  const servers: ScriptedServer[] = [];
  beforeAll(async () => {
    servers.push(...(await Promise.all([0, 1, 2].map(() => startScriptedServer()))));
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('answers each request with the model the rule names, sends each model exactly its requests, and answers every call once', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ models, requests, splitAt }) => {
        const plan = expected(models, requests);
        const sessions = servers
          .slice(0, models)
          .map((server, i) =>
            server.session(
              plan.received[i].map((r) =>
                reply(requests[r].outcomes[i], r, r === requests.length - 1, requests[r].calls),
              ),
            ),
          );
        const names = sessions.map((_, i) => `model-${i}`);
        const lookup = fakeTool('lookup', () => ({ response: 'found' }));
        const run = (extra: { maxRunAgentTimes: number; resumeFrom?: RunState }) =>
          runAgentLoop({
            client: sessions[0].client(),
            body: { model: names[0], messages: [user('Go.')] },
            tools: [lookup],
            fallback: sessions.slice(1).map((session, i) => ({ model: names[i + 1], client: session.client() })),
            maxConsecutiveToolTurns: 0,
            ...extra,
          });

        const results: RunAgentResponse[] = [];
        if (splitAt > 0 && splitAt < requests.length) {
          results.push(await run({ maxRunAgentTimes: splitAt }));
          const state = JSON.parse(JSON.stringify(results[0].state)) as RunState;
          if (results[0].stopReason === 'max_turns')
            results.push(await run({ maxRunAgentTimes: 99, resumeFrom: state }));
        } else {
          results.push(await run({ maxRunAgentTimes: 99 }));
        }
        const last = results[results.length - 1];

        expect(sessions.map((s) => s.requests.length)).toEqual(plan.received.map((r) => r.length));
        expect(sessions.map((s) => s.pending())).toEqual(sessions.map(() => 0));
        // Usage items name the model that answered each request; a run that failed adds its last attempt's.
        const usageModels = results.flatMap((r) => r.usages.map((u) => u.model));
        const answered = plan.answeredBy.map((p) => names[p]);
        expect(usageModels).toEqual(plan.failure === undefined ? answered : [...answered, names[plan.position]]);
        if (plan.failure === undefined) {
          expect(last.stopReason).toBe('completed');
          expect(last.error).toBeUndefined();
        } else {
          expect(last.stopReason).toBe('error');
          const status = (last.error as { status?: number }).status;
          expect(status).toBe(plan.failure === 'in-stream' ? undefined : plan.failure);
        }
        if (models > 1) expect(last.state.model).toBe(names[plan.position]);
        expect(last.state.fallbackIndex).toBe(plan.position === 0 ? undefined : plan.position - 1);
        assertValidHistory(last.completeMessages);
        // Every call the answering models made ran once.
        const madeCalls = plan.answeredBy
          .map((_, r) => (r === requests.length - 1 ? 0 : requests[r].calls))
          .reduce((a, b) => a + b, 0);
        expect(lookup.calls).toHaveLength(madeCalls);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});
