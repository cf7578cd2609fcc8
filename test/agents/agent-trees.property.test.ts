import fc from 'fast-check';
import '../helpers/fast-check-seed';
import { defineAgent, runAgentLoop, type Decision, type RunState, type ToolDefinition } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import type { RecordedRequest } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

/** A generated agent: each of its calls is a leaf tool (maybe approval-gated) or another agent. */
type Node = { calls: ({ leaf: boolean; approval: boolean } | Node)[] };
const isLeaf = (call: Node['calls'][number]): call is { leaf: boolean; approval: boolean } => 'leaf' in call;

const leafArb = fc.record({ leaf: fc.constant(true), approval: fc.boolean() });
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

type Built = { tools: ToolDefinition[]; leaves: Map<string, { runs: string[]; approval: boolean }> };

/** Agents `a<n>` and leaves `t<n>`; each agent's system message names it, so the scripted model knows who asks. */
function build(root: Node): Built & { plan: Map<string, string[]> } {
  const leaves = new Map<string, { runs: string[]; approval: boolean }>();
  const plan = new Map<string, string[]>();
  let next = 0;
  const toolsOf = (node: Node, owner: string): ToolDefinition[] => {
    const tools: ToolDefinition[] = [];
    const names: string[] = [];
    for (const call of node.calls) {
      const name = `${isLeaf(call) ? 't' : 'a'}${next++}`;
      names.push(name);
      if (isLeaf(call)) {
        const record = { runs: [] as string[], approval: call.approval };
        leaves.set(name, record);
        tools.push(
          fakeTool(name, ({ idempotencyKey }) => (record.runs.push(idempotencyKey!), { response: `${name} ok` }), {
            needsApproval: call.approval,
          }),
        );
      } else {
        tools.push(defineAgent({ name, description: name, instructions: `agent:${name}`, tools: toolsOf(call, name) }));
      }
    }
    plan.set(owner, names);
    return tools;
  };
  return { tools: toolsOf(root, 'root'), leaves, plan };
}

/** The scripted model: each agent calls its tools once, then answers once it has their messages. */
function model(plan: Map<string, string[]>) {
  return (request: RecordedRequest) => {
    const messages = request.body.messages as { role: string; content?: unknown }[];
    const system = messages.find((m) => m.role === 'system')?.content;
    const owner = typeof system === 'string' ? system.slice('agent:'.length) : 'root';
    if (messages.at(-1)?.role === 'tool') return { text: `done ${owner}` };
    return {
      toolCalls: plan.get(owner)!.map((name, i) => ({ id: `${owner}_${i}`, name, arguments: { task: 'x' } })),
    };
  };
}

describe('agent trees (property)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('answers every call once, runs approved calls exactly once, routes decisions by path, and sums spend at the root', async () => {
    await fc.assert(
      fc.asyncProperty(nodeArb(1), fc.infiniteStream(fc.boolean()), async (root, approvals) => {
        const { tools, leaves, plan } = build(root);
        const session = server.session(Array.from({ length: 200 }, () => model(plan)));
        const approved = new Set<string>();
        const decided = new Set<string>();
        const usages: number[] = [];
        let result = await runAgentLoop({
          client: session.client(),
          body: { model: 'm', messages: [user('go')] },
          tools,
          runId: 'r',
          budget: { toolCalls: 10_000 },
        });
        usages.push(result.usages.length);
        const stream = approvals[Symbol.iterator]();
        for (let round = 0; result.stopReason === 'interactive' && round < 20; round++) {
          const decisions: Record<string, Decision> = {};
          for (const pending of result.state.pending) {
            const key = [...(pending.agentPath ?? []), pending.call.id].join('/');
            expect(decided.has(key)).toBe(false);
            decided.add(key);
            const yes = stream.next().value as boolean;
            if (yes) approved.add(key);
            decisions[key] = yes ? { approve: true } : { approve: false };
          }
          const state = JSON.parse(JSON.stringify(result.state)) as RunState;
          result = await runAgentLoop({
            client: session.client(),
            body: { model: 'm', messages: [] },
            tools,
            resumeFrom: state,
            decisions,
            budget: { toolCalls: 10_000 },
          });
          usages.push(result.usages.length);
        }
        expect(result.stopReason).toBe('completed');
        assertValidRequests(session.requests);
        let ran = 0;
        for (const [, leaf] of leaves) {
          for (const key of leaf.runs) expect(key.startsWith('r:')).toBe(true);
          const keys = leaf.runs.map((key) => key.slice(2));
          if (!leaf.approval) expect(keys).toHaveLength(1);
          else {
            // Ran exactly when approved, once, under the key its decision was given by.
            expect(keys.every((key) => approved.has(key))).toBe(true);
            expect(keys).toHaveLength(new Set(keys).size);
          }
          ran += keys.length;
        }
        expect([...approved].every((key) => [...leaves.values()].some((leaf) => leaf.runs.includes(`r:${key}`)))).toBe(
          true,
        );
        // Every model request of the tree is one usage item at the root, and every call counted once.
        expect(usages.reduce((a, b) => a + b, 0)).toBe(session.requests.length);
        const agentCalls = [...plan.keys()].length - 1;
        expect(result.state.spent?.toolCalls).toBe(ran + agentCalls);
      }),
      { numRuns: 25 },
    );
  });
});
