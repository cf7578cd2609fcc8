import fc from 'fast-check';
import '../helpers/fast-check-seed';
import {
  defineAgent,
  runAgentLoop,
  type Decision,
  type RunAgentResponse,
  type RunState,
  type ToolDefinition,
  type ToolExecuteResult,
  type ToolJournal,
  type UsageItem,
} from '../../src';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { assertValidHistory, assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

/**
 * Generated trees of agents (depth ≤ 3) run to the end through approvals and crashes. A crash is simulated in process:
 * at a random checkpoint of the root (once it is saved) or inside a random leaf tool (after its side effect), the
 * run is dropped: its signal fires, and from then on nothing of it has an effect (its tools, journal writes and
 * checkpoints never return). A fresh `runAgentLoop` then resumes from the root's last saved state with the same
 * `runId` and the same journal, as another process would.
 */

/** A generated agent: each of its calls is a leaf tool (maybe approval-gated) or another agent. */
type Node = { calls: ({ leaf: true; approval: boolean } | Node)[] };
const isLeaf = (call: Node['calls'][number]): call is { leaf: true; approval: boolean } => 'leaf' in call;

const leafArb = fc.record({ leaf: fc.constant(true as const), approval: fc.boolean() });
const nodeArb = (depth: number): fc.Arbitrary<Node> =>
  fc.record({
    calls: fc.array(
      depth >= 3
        ? leafArb
        : fc.oneof(
            leafArb,
            fc.constant(null).chain(() => nodeArb(depth + 1)),
          ),
      {
        minLength: 1,
        maxLength: 2,
      },
    ),
  });

/** A leaf's side effects, by idempotency key. */
type Leaf = { runs: string[]; approval: boolean };

/** One run of the root until it ends or crashes: what the crash drops, and what it leaves. */
type Segment = {
  crashed: boolean;
  controller: AbortController;
  crash: () => void;
  /** Keys of the calls whose side effect is done and whose result is not journaled yet. */
  unjournaled: string[];
};

/** Agents `a<n>` and leaves `t<n>`; each agent's system message names it, so the scripted model knows who asks. */
function build(root: Node, live: () => Segment, tick: () => boolean) {
  const leaves = new Map<string, Leaf>();
  const plan = new Map<string, string[]>();
  let next = 0;
  const toolsOf = (node: Node, owner: string): ToolDefinition[] => {
    const tools: ToolDefinition[] = [];
    const names: string[] = [];
    for (const call of node.calls) {
      const name = `${isLeaf(call) ? 't' : 'a'}${next++}`;
      names.push(name);
      if (isLeaf(call)) {
        const leaf: Leaf = { runs: [], approval: call.approval };
        leaves.set(name, leaf);
        const execute = ({ idempotencyKey }: { idempotencyKey?: string }): Promise<ToolExecuteResult> => {
          const segment = live();
          // A dropped run's tools have no effect: the process they ran in is gone.
          if (segment.crashed) return never();
          leaf.runs.push(idempotencyKey!);
          segment.unjournaled.push(idempotencyKey!);
          // Killed after the side effect, before its result is journaled.
          if (tick()) {
            segment.crash();
            return never();
          }
          return Promise.resolve({ response: `${name} ok` });
        };
        tools.push(fakeTool(name, execute, { needsApproval: call.approval }));
      } else {
        tools.push(defineAgent({ name, description: name, instructions: `agent:${name}`, tools: toolsOf(call, name) }));
      }
    }
    plan.set(owner, names);
    return tools;
  };
  return { tools: toolsOf(root, 'root'), leaves, plan };
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** The scripted model: each agent calls its tools once, then answers once it has their messages. */
function model(plan: Map<string, string[]>) {
  return (request: RecordedRequest) => {
    const messages = request.body.messages as { role: string; content?: unknown }[];
    const system = messages.find((m) => m.role === 'system')?.content;
    const owner = typeof system === 'string' ? system.slice('agent:'.length) : 'root';
    // Tokens the request can be told apart by: what reaches the root's budget is checked against their sum.
    const usage = { prompt_tokens: 3 + messages.length, completion_tokens: 1 + owner.length };
    if (messages.at(-1)?.role === 'tool') return { text: `done ${owner}`, usage };
    return {
      usage,
      toolCalls: plan.get(owner)!.map((name, i) => ({ id: `${owner}_${i}`, name, arguments: { task: 'x' } })),
    };
  };
}

const keyOf = (entry: RunState['pending'][number]) => [...(entry.agentPath ?? []), entry.call.id].join('/');
/** A state the run ended with (its answer last, nothing pending). */
const hasEnded = (state: RunState) => {
  const last = state.messages.at(-1);
  return !state.pending.length && last?.role === 'assistant' && !last.tool_calls?.length;
};
const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('agent trees with crashes (property)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('answers every call once, runs each approved call once (a call killed after its side effect again, with the same key), routes decisions by path, and sums spend at the root', async () => {
    await fc.assert(
      fc.asyncProperty(
        nodeArb(1),
        fc.infiniteStream(fc.boolean()),
        fc.uniqueArray(fc.nat({ max: 12 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(1, 2),
        async (root, approvals, crashPoints, toolConcurrency) => {
          const crashAt = new Set(crashPoints);
          let ticks = 0;
          /** Keys of the calls a crash caught between their side effect and their journal entry. */
          const killed: string[] = [];
          /** A checkpoint saved or a leaf's side effect done: the crash points count them. */
          const tick = () => crashAt.has(ticks++);
          let segment: Segment = newSegment();
          function newSegment(): Segment {
            const controller = new AbortController();
            const made: Segment = {
              crashed: false,
              controller,
              unjournaled: [],
              crash: () => {
                made.crashed = true;
                killed.push(...made.unjournaled);
                controller.abort();
                crashed();
              },
            };
            return made;
          }
          let crashed = () => undefined as void;
          const { tools, leaves, plan } = build(root, () => segment, tick);
          const session = server.session(Array.from({ length: 600 }, () => model(plan)));
          // The durable store: the journal, and the root's last saved state.
          const journalEntries = new Map<string, ToolExecuteResult>();
          let stored: RunState | undefined;
          const approved = new Set<string>();
          /** Each decision, with the number of crashes before it: only a crash lets a call be listed again. */
          const decided = new Map<string, { decision: Decision; crashes: number }>();
          let crashes = 0;
          const tokens = { input: 0, output: 0 };
          const stream = approvals[Symbol.iterator]();

          let result: RunAgentResponse | undefined;
          for (let round = 0; round < 40; round++) {
            const here = newSegment();
            segment = here;
            const decisions: Record<string, Decision> = {};
            for (const pending of stored?.pending ?? []) {
              const key = keyOf(pending);
              const before = decided.get(key);
              if (before) {
                expect(before.crashes).toBeLessThan(crashes);
                decisions[key] = before.decision;
                continue;
              }
              const yes = stream.next().value as boolean;
              if (yes) approved.add(key);
              const decision: Decision = yes ? { approve: true } : { approve: false };
              decided.set(key, { decision, crashes });
              decisions[key] = decision;
            }
            // Tokens of the usage items this segment reported, and of those its last saved state holds.
            const seen = { input: 0, output: 0 };
            const saved = { input: 0, output: 0 };
            const journal: ToolJournal = {
              get: async (key) => journalEntries.get(key),
              set: (key, value) => {
                if (here.crashed) return never();
                journalEntries.set(key, value);
                const at = here.unjournaled.indexOf(key);
                if (at >= 0) here.unjournaled.splice(at, 1);
                return Promise.resolve();
              },
            };
            const ended = new Promise<'crashed'>((resolve) => {
              crashed = () => resolve('crashed');
            });
            const run = runAgentLoop({
              client: session.client(),
              body: { model: 'm', messages: stored ? [] : [user('go')] },
              tools,
              runId: 'r',
              journal,
              toolConcurrency,
              abortSignal: here.controller.signal,
              budget: { toolCalls: 10_000 },
              ...(stored && { resumeFrom: roundTrip(stored), decisions }),
              usagePush: (usages: UsageItem[]) => {
                if (here.crashed) return;
                for (const usage of usages) {
                  seen.input += usage.inputTokens ?? 0;
                  seen.output += usage.outputTokens ?? 0;
                }
              },
              onCheckpoint: (state) => {
                if (here.crashed) return never();
                stored = roundTrip(state);
                saved.input = seen.input;
                saved.output = seen.output;
                // After the run's last save it has ended: the store keeps it as ended, nothing resumes it.
                if (tick() && !hasEnded(state)) here.crash();
                return here.crashed ? never() : undefined;
              },
            });
            const outcome = await Promise.race([run, ended]);
            if (outcome === 'crashed') {
              crashes++;
              tokens.input += saved.input;
              tokens.output += saved.output;
              continue;
            }
            result = outcome;
            tokens.input += seen.input;
            tokens.output += seen.output;
            stored = result.state;
            if (result.stopReason !== 'interactive') break;
          }

          expect(result?.stopReason).toBe('completed');
          expect(result?.text).toBe('done root');
          // Every call answered once in every history sent, the dropped runs' included, and in the root's last.
          assertValidRequests(session.requests);
          assertValidHistory(result!.state.messages, 'root');
          for (const [, leaf] of leaves) {
            for (const key of leaf.runs) expect(key.startsWith('r:')).toBe(true);
            const keys = leaf.runs.map((key) => key.slice(2));
            const distinct = new Set(keys);
            // A call killed between its side effect and its journal entry may run once more, and only with the same
            // key; every other call runs once.
            for (const key of distinct) {
              const kills = killed.filter((k) => k === `r:${key}`).length;
              expect([key, keys.filter((ran) => ran === key).length <= 1 + kills]).toEqual([key, true]);
            }
            if (!leaf.approval) expect(distinct.size).toBe(1);
            // Ran exactly when approved, under the key its decision was given by.
            else expect([...distinct].every((key) => approved.has(key))).toBe(true);
          }
          const ran = [...leaves.values()].flatMap((leaf) => leaf.runs.map((key) => key.slice(2)));
          expect([...approved].every((key) => ran.includes(key))).toBe(true);
          // The root's spend is every request of the tree its states kept: its own in `usage`, its agents' in `spent`.
          const { usage, spent } = result!.state;
          expect(usage.inputTokens + (spent?.summaryInputTokens ?? 0)).toBe(tokens.input);
          expect(usage.outputTokens + (spent?.summaryOutputTokens ?? 0)).toBe(tokens.output);
          if (crashes === 0) {
            const agentCalls = plan.size - 1;
            expect(spent?.toolCalls).toBe(new Set(ran).size + agentCalls);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
