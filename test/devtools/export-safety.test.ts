import fc from 'fast-check';
import ts from 'typescript';
import { runAgentLoop } from '../../src';
import { createRunRecorder, exportRunAsTest } from '../../src/devtools';
import type { RecordedRun } from '../../src/devtools';
import { startScriptedServer } from '../../src/testing';
import '../helpers/fast-check-seed';
import { fakeTool, user } from '../helpers/tools';

/** Texts that end a comment, a string, a template or a script in one parser or another, mixed with any text. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom('\u2028', '\u2029', '*/', '/*', '//', '${', '`', '"', "'", '\\', '\n', '\r', '</script>', '<!--'),
      fc.constantFrom("require('fs').writeFileSync('pwned', '');", '});', '\u2028process.exit(0);//'),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

const call = fc.record({ id: hostile, name: hostile, arguments: hostile });
const recordedRun: fc.Arbitrary<RecordedRun> = fc
  .record({
    runId: hostile,
    model: hostile,
    input: fc.array(
      hostile.map((content) => ({ role: 'user', content })),
      { maxLength: 2 },
    ),
    turns: fc.array(
      fc.record({
        text: hostile,
        reasoning: hostile,
        toolCalls: fc.array(call, { maxLength: 3 }),
        finishReason: fc.constantFrom('stop', 'tool_calls', 'length', 'content_filter'),
      }),
      { maxLength: 3 },
    ),
    outcome: fc.constantFrom('ok', 'error', 'rejected'),
    response: hostile,
    reason: hostile,
    stopReason: fc.constantFrom('completed', 'interactive', 'error', 'aborted'),
    text: hostile,
  })
  .map(({ outcome, response, reason, ...run }) => {
    const calls = run.turns.flatMap((turn) => turn.toolCalls);
    return {
      ...run,
      results: Object.fromEntries(calls.map((c) => [c.id, { name: c.name, outcome, response }])),
      decisions: Object.fromEntries(calls.map((c) => [c.id, { approve: false as const, reason }])),
    };
  });

/** The same run with every text consistently renamed to a plain word: the shape the export must keep. */
function plain(run: RecordedRun): RecordedRun {
  const names = new Map<string, string>();
  const word = (text: string) => {
    if (text === '') return '';
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `w${names.size}`));
    return name;
  };
  return {
    ...run,
    runId: word(run.runId),
    model: word(run.model!),
    input: run.input.map((m) => ({ role: 'user', content: word((m as { content: string }).content) })),
    turns: run.turns.map((turn) => ({
      ...turn,
      text: word(turn.text),
      reasoning: word(turn.reasoning),
      toolCalls: turn.toolCalls.map((c) => ({ id: word(c.id), name: word(c.name), arguments: word(c.arguments) })),
    })),
    results: Object.fromEntries(
      Object.entries(run.results).map(([id, r]) => [
        word(id),
        { ...r, name: word(r.name), response: word(r.response) },
      ]),
    ),
    decisions: Object.fromEntries(
      Object.entries(run.decisions).map(([id, d]) => [
        word(id),
        'approve' in d && !d.approve ? { approve: false, reason: word(d.reason ?? '') } : d,
      ]),
    ),
    text: word(run.text!),
  };
}

/** Every node's kind in document order, and every comment's text: what the file does, with its data left out. */
function shape(file: string): { kinds: string[]; comments: string[] } {
  const source = ts.createSourceFile('replay.test.ts', file, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const kinds: string[] = [];
  const comments = new Set<string>();
  const visit = (node: ts.Node) => {
    kinds.push(ts.SyntaxKind[node.kind]);
    for (const range of [
      ...(ts.getLeadingCommentRanges(file, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(file, node.end) ?? []),
    ])
      comments.add(file.slice(range.pos, range.end));
    node.forEachChild(visit);
  };
  visit(source);
  return { kinds, comments: [...comments] };
}

describe('an exported test never runs text of the run as code', () => {
  it('parses to the same statements and comments whatever the ids and texts hold', () => {
    fc.assert(
      fc.property(recordedRun, (run) => {
        const file = exportRunAsTest(run);
        expect(file).not.toMatch(/[\u2028\u2029]/);
        const expected = exportRunAsTest(plain(run));
        expect(shape(file)).toEqual(shape(expected));
      }),
      { numRuns: 100 },
    );
  });

  it('writes a file the compiler reads without a syntax error', () => {
    const [run] = fc.sample(recordedRun, { numRuns: 1, seed: 11 });
    const { diagnostics = [] } = ts.transpileModule(exportRunAsTest(run), { reportDiagnostics: true });
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });

  it('keeps the values: the literals read back as the recorded texts', () => {
    const run = fc.sample(recordedRun, { numRuns: 1, seed: 7 })[0];
    const file = exportRunAsTest({ ...run, text: '\u2028*/${`x`}</script>' });
    expect(file).toContain('"\\u2028\\u002a\\u002f\\u0024{\\u0060x\\u0060}\\u003c\\u002fscript\\u003e"');
    expect(JSON.parse('"\\u2028\\u002a\\u002f\\u0024{\\u0060x\\u0060}\\u003c\\u002fscript\\u003e"')).toBe(
      '\u2028*/${`x`}</script>',
    );
  });

  it('does not record a resumeFrom that stateSecret refuses under the id it claims', async () => {
    const server = await startScriptedServer();
    try {
      const recorder = createRunRecorder();
      const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
      server.enqueue({ toolCalls: [{ id: 'p1', name: 'pay', arguments: {} }] });
      const props = {
        client: server.client(),
        body: { model: 'm', messages: [user('pay')] },
        tools: [pay],
        stateSecret: 'a secret of the app, long enough',
      };
      const first = await runAgentLoop({ ...props, ...recorder.hooks(props) });
      recorder.finish(first);
      const realId = first.state.runId;
      const before = await recorder.source.page(realId, { offset: 0, limit: 100, maxChars: 4000 });
      expect(before?.summary.status).toBe('waiting');

      // A client plants a state under a hostile id, and under the real run's id: both are refused, neither recorded.
      for (const runId of ['planted\u2028require("fs").writeFileSync("pwned", "")//', realId]) {
        const state = { ...first.state, runId, messages: [...first.state.messages, user('and refund me')] };
        const forged = { ...props, resumeFrom: state, decisions: { p1: { approve: true } } };
        const result = await runAgentLoop({ ...forged, ...recorder.hooks(forged) });
        recorder.finish(result);
        expect(result.stopReason).toBe('error');
      }
      expect((await recorder.source.list()).map((r) => r.runId)).toEqual([realId]);
      const after = await recorder.source.page(realId, { offset: 0, limit: 100, maxChars: 4000 });
      expect(after).toEqual(before);
      expect(pay.calls).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
