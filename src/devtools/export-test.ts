import type { RecordedRun } from './source';

/** A file name for the exported test of `runId`: letters, digits and dashes only. */
export function exportFileName(runId: string): string {
  return `run-${runId.replace(/[^A-Za-z0-9-]/g, '_').slice(0, 80)}.test.ts`;
}

/**
 * `value` as a JSON literal that every JS and TS parser reads as data. `JSON.stringify` leaves U+2028 and U+2029
 * as they are (both end a `//` comment), and a literal pasted into a template or a comment would end at `` ` ``,
 * `${` or a star and a slash: each of those characters is written as a `\u` escape, which means the same inside a string.
 * Outside strings JSON has none of them, so the escape never touches the structure.
 */
function literal(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'undefined').replace(
    /[\u2028\u2029`$*/<>]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A Jest test that replays a recorded run: the scripted server of `agentcall/testing` answers with the model's
 * recorded replies, stand-in tools give the recorded results, recorded decisions answer the pauses, and the test
 * asserts the same tool calls, outcomes and stop reason. Run text reaches the file only as JSON string literals
 * escaped for every parser (never in a comment), so no text of the run can become code.
 */
export function exportRunAsTest(run: RecordedRun): string {
  const turns = run.turns.map((turn) => ({
    ...(turn.text ? { text: turn.text } : {}),
    ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
    ...(turn.toolCalls.length
      ? { toolCalls: turn.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })) }
      : {}),
    ...(turn.finishReason && turn.finishReason !== 'tool_calls' && turn.finishReason !== 'stop'
      ? { finishReason: turn.finishReason }
      : {}),
  }));
  const calls = run.turns.flatMap((turn) => turn.toolCalls);
  const expectedCalls = calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
  const expectedOutcomes = calls
    .filter((call) => run.results[call.id]?.outcome !== undefined)
    .map((call) => ({ id: call.id, outcome: run.results[call.id].outcome }));
  const gated = calls.filter((call) => run.decisions[call.id] !== undefined).map((call) => call.id);
  const names = [...new Set(calls.map((call) => call.name))];
  const json = (value: unknown) => literal(value, 2);
  return `// A run recorded by agentcall devtools, replayed as a regression test (its id is in \`describe\` below).
// The model's replies come from the recording; the tools are stand-ins that give the recorded results. Put your
// real tools in \`tools\` to test them against the same model turns.
import { runAgentLoop } from 'agentcall';
import type { AfterToolCallEvent, Decision, RunAgentResponse, ToolDefinition } from 'agentcall';
import { startScriptedServer } from 'agentcall/testing';
import type { ScriptedReply } from 'agentcall/testing';

const turns: ScriptedReply[] = ${json(turns)};

const input = ${json(run.input)};

const results: Record<string, { name: string; response: string }> = ${json(
    Object.fromEntries(Object.entries(run.results).map(([id, r]) => [id, { name: r.name, response: r.response }])),
  )};

/** What a person decided on each paused call. */
const decisions: Record<string, Decision> = ${json(run.decisions)};

/** Calls that waited for a person. */
const gated = new Set<string>(${literal(gated)});

const toolNames: string[] = ${literal(names)};

/** A stand-in for each tool the model called: it answers each call with the recorded result. */
const tools: ToolDefinition[] = toolNames.map((name) => ({
  schema: { type: 'function', function: { name, parameters: { type: 'object', additionalProperties: true } } },
  needsApproval: ({ call }) => gated.has(call.id),
  execute: async ({ call }) => ({ response: results[call.id]?.response ?? '' }),
}));

describe(${literal(`the recorded run ${run.runId}`)}, () => {
  it('makes the same tool calls, with the same outcomes', async () => {
    const server = await startScriptedServer({ turns });
    try {
      const outcomes: { id: string; outcome: string }[] = [];
      const onAfterToolCall = (e: AfterToolCallEvent) => outcomes.push({ id: e.call.id, outcome: e.outcome });
      const props = {
        client: server.client(),
        body: { model: ${literal(run.model ?? 'model')}, messages: input as never },
        tools,
        onAfterToolCall,
      };
      let result: RunAgentResponse = await runAgentLoop(props);
      for (let pauses = 0; result.stopReason === 'interactive' && pauses < 100; pauses++) {
        const answers = Object.fromEntries(
          result.state.pending.filter((p) => decisions[p.call.id]).map((p) => [p.call.id, decisions[p.call.id]]),
        );
        if (!Object.keys(answers).length) break;
        result = await runAgentLoop({ ...props, resumeFrom: result.state, decisions: answers });
      }
      const calls = result.completeMessages.flatMap((m) =>
        m.role === 'assistant' && m.tool_calls
          ? m.tool_calls.flatMap((c) =>
              c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
            )
          : [],
      );
      expect(calls).toEqual(${json(expectedCalls)});
      // Only the outcomes the recording knows of (a queue's events carry results, not outcomes).
      const expectedOutcomes = ${json(expectedOutcomes)};
      const known = new Set(expectedOutcomes.map((o) => o.id));
      expect(outcomes.filter((o) => known.has(o.id))).toEqual(expectedOutcomes);
      expect(result.stopReason).toBe(${literal(run.stopReason ?? 'completed')});${
        run.text !== undefined && run.stopReason === 'completed'
          ? `\n      expect(result.text).toBe(${literal(run.text)});`
          : ''
      }
    } finally {
      await server.close();
    }
  });
});
`;
}
