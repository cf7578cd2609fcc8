import type { RecordedRun, RecordedTurn } from './source';

/** Options of {@link exportRunAsTest}. */
export type ExportTestOptions = {
  /** The test runner the file is written for: `jest` (its globals, the default) or `vitest` (imported from it). */
  runner?: 'jest' | 'vitest';
};

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

/** Finish reasons the scripted server sends as they are; the others come from the reply's content. */
const SCRIPTED_FINISH = new Set(['length', 'content_filter']);
/** A reply that never comes in the test's time: where an abort or the run's timeout cut the recorded run. */
const HANG = { delayMs: 120_000 };

/**
 * A final answer as the `output` check reads it: the JSON alone, or alone in one code fence; `undefined` when it is
 * no JSON (the loop refuses it before any schema).
 */
function answerJson(text: string): string | undefined {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  try {
    return JSON.stringify(JSON.parse(fenced ? fenced[1] : text));
  } catch {
    return undefined;
  }
}

/**
 * The final answers a run with `output` had refused, as JSON: each answer (a reply with no tool call that did not
 * fail) that another request followed, and the last one when the run ended `output_invalid`.
 */
function refusedAnswers(run: RecordedRun): string[] {
  if (!run.typedOutput) return [];
  const refused = run.turns.filter(
    (turn, i) =>
      !turn.failed && !turn.toolCalls.length && (i < run.turns.length - 1 || run.stopReason === 'output_invalid'),
  );
  return [...new Set(refused.flatMap((turn) => answerJson(turn.text) ?? []))];
}

/** A recorded model reply as the scripted server's reply. */
function scripted(turn: RecordedTurn): object {
  if (turn.failed) return { status: 500, errorMessage: 'The recorded request failed' };
  return {
    ...(turn.text ? { text: turn.text } : {}),
    ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
    ...(turn.refusal !== undefined ? { refusal: turn.refusal } : {}),
    ...(turn.toolCalls.length
      ? { toolCalls: turn.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })) }
      : {}),
    ...(turn.finishReason && SCRIPTED_FINISH.has(turn.finishReason) ? { finishReason: turn.finishReason } : {}),
    ...(turn.usage
      ? { usage: { prompt_tokens: turn.usage.inputTokens, completion_tokens: turn.usage.outputTokens } }
      : {}),
  };
}

/**
 * A test that replays a recorded run, for Jest (the default) or Vitest (`runner: 'vitest'`): the scripted server of
 * `agentcall/testing` answers with the model's recorded replies, stand-in tools give the recorded results (a call
 * that failed fails again, one refused as invalid is refused again), recorded decisions answer the pauses, the run's
 * limits are the recorded ones, and the test asserts the same tool calls, outcomes, stop reason and answer. A run
 * cut by an abort or its timeout is cut again where it was. The file type-checks under `strict`. Run text reaches
 * it only as JSON string literals escaped for every parser (never in a comment), so no text of the run can become
 * code.
 */
export function exportRunAsTest(run: RecordedRun, options: ExportTestOptions = {}): string {
  const cut = run.stopReason === 'aborted' || run.stopReason === 'timeout';
  // The request an abort or the timeout cut (it failed, or ended with no call) hangs in the replay instead.
  const last = run.turns.at(-1);
  const cutRequest = cut && last !== undefined && (last.failed === true || !last.toolCalls.length);
  const recordedTurns = cutRequest ? run.turns.slice(0, -1) : run.turns;
  const answered = recordedTurns.length;
  const turns = [...recordedTurns.map(scripted), ...(cut ? [HANG] : [])];
  const calls = run.turns.flatMap((turn) => turn.toolCalls);
  const outcomeOf = (id: string) => run.results[id]?.outcome;
  const expectedCalls = calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
  const expectedOutcomes = calls
    .filter((call) => outcomeOf(call.id) !== undefined)
    .map((call) => ({ id: call.id, outcome: outcomeOf(call.id) }));
  const gated = run.waited ?? calls.filter((call) => run.decisions[call.id] !== undefined).map((call) => call.id);
  const failing = calls.filter((call) => outcomeOf(call.id) === 'error').map((call) => call.id);
  // A call the abort cut while it ran: its stand-in waits there, and the replay is aborted once it starts.
  const cutting = calls.filter((call) => outcomeOf(call.id) === 'aborted').map((call) => call.id);
  const invalid = calls
    .filter((call) => outcomeOf(call.id) === 'invalid_arguments')
    .map((call) => `${call.name}\n${call.arguments}`);
  // A name the model made up was answered "not found": it gets no stand-in, so it is not found again.
  const names = [...new Set(calls.filter((call) => outcomeOf(call.id) !== 'not_found').map((call) => call.name))];
  const limits = { ...run.limits, ...(run.stopReason === 'timeout' && !run.limits?.timeoutMs && { timeoutMs: 1000 }) };
  const json = (value: unknown) => literal(value, 2);
  const vitest = options.runner === 'vitest';
  return `// A run recorded by agentcall devtools, replayed as a regression test (its id is in \`describe\` below).
// The model's replies come from the recording; the tools are stand-ins that give the recorded results. Put your
// real tools in \`tools\` to test them against the same model turns.
${vitest ? "import { describe, expect, it } from 'vitest';\n" : ''}import { runAgentLoop } from 'agentcall';
import type {
  AfterToolCallEvent,
  ChatCompletionMessageParam,
  Decision,${run.typedOutput ? '\n  OutputStandardSchema,' : ''}
  RunAgentCallProps,
  RunAgentResponse,
  ToolDefinition,
} from 'agentcall';
import { startScriptedServer } from 'agentcall/testing';
import type { ScriptedReply } from 'agentcall/testing';

const turns: ScriptedReply[] = ${json(turns)};

const input: ChatCompletionMessageParam[] = ${json(run.input)};

const results: Record<string, { name: string; response: string }> = ${json(
    Object.fromEntries(Object.entries(run.results).map(([id, r]) => [id, { name: r.name, response: r.response }])),
  )};

/** What a person decided on each paused call. */
const decisions: Record<string, Decision> = ${json(run.decisions)};

/** Calls that waited for a person. */
const gated = new Set<string>(${literal(gated)});
/** Calls whose tool failed, and calls refused as invalid (by tool name and arguments). */
const failing = new Set<string>(${literal(failing)});
const invalid = new Set<string>(${literal(invalid)});
/** Calls whose tool ended the run. */
const stopping = new Set<string>(${literal(run.stoppedBy ?? [])});
/** Calls an abort cut while their tool ran: the replay is cut there too. */
const cutting = new Set<string>(${literal(cutting)});
let cut = false;

/** The run's limits: where it stops depends on them. */
const limits: Pick<RunAgentCallProps, 'maxRunAgentTimes' | 'timeoutMs' | 'budget' | 'prices' | 'outputRetries'> = ${json(limits)};

const toolNames: string[] = ${literal(names)};
${
  run.typedOutput
    ? `
/**
 * A stand-in for the run's \`output\`: it refuses the answers the recorded run had refused (as JSON) and takes the
 * others. Put the real schema here to test it against the same answers.
 */
const refusedAnswers = new Set<string>(${literal(refusedAnswers(run))});
const output: OutputStandardSchema<unknown> = {
  '~standard': {
    version: 1,
    vendor: 'agentcall-export',
    validate: (value: unknown) =>
      refusedAnswers.has(JSON.stringify(value)) ? { issues: [{ message: 'refused as in the recording' }] } : { value },
  },
  jsonSchema: {},
};
`
    : ''
}

/** A stand-in for each tool the model called: it answers each call as the recording says. */
const tools: ToolDefinition[] = toolNames.map((name) => ({
  schema: { type: 'function', function: { name, parameters: { type: 'object', additionalProperties: true } } },
  needsApproval: ({ call }) => gated.has(call.id),
  parseParams: (raw: string) =>
    invalid.has(\`\${name}\\n\${raw}\`)
      ? { success: false as const, errorMessage: 'refused as in the recording' }
      : { success: true as const, data: {} },
  execute: async ({ call, signal }) => {
    const response = results[call.id]?.response ?? '';
    if (failing.has(call.id)) throw new Error(response);
    if (cutting.has(call.id)) {
      cut = true;
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }
    return stopping.has(call.id) ? { response, stop: true } : { response };
  },
}));

describe(${literal(`the recorded run ${run.runId}`)}, () => {
  it('makes the same tool calls, with the same outcomes', async () => {
    const server = await startScriptedServer({ turns });
    try {
      const outcomes: { id: string; outcome: string }[] = [];
      const onAfterToolCall = (e: AfterToolCallEvent) => {
        outcomes.push({ id: e.call.id, outcome: e.outcome });
      };
      const props: RunAgentCallProps = {
        client: server.client(),
        body: { model: ${literal(run.model ?? 'model')}, messages: input },
        tools,
        onAfterToolCall,${run.typedOutput ? '\n        output,' : ''}
        ...limits,${cut && run.stopReason === 'aborted' ? `\n        // The recorded run was aborted in its request #${answered + 1}: so is this one.\n        isAborted: () => cut || server.requests.length > ${answered},` : ''}
      };
      let result: RunAgentResponse = await runAgentLoop(props);
      for (let pauses = 0; result.stopReason === 'interactive' && pauses < 100; pauses++) {
        const pending = result.state.pending.map((p) => p.call.id);
        // A pause the recording has no decision for every call of is where the recorded run stopped.
        if (!pending.every((id) => decisions[id] !== undefined)) break;
        const answers = Object.fromEntries(pending.map((id) => [id, decisions[id]!]));
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
      // Only the outcomes the recording knows of.
      const expectedOutcomes: { id: string; outcome: string }[] = ${json(expectedOutcomes)};
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
  }, 60_000);
});
`;
}
