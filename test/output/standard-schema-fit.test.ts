import { join } from 'node:path';
import ts from 'typescript';
import { z } from 'zod';
import { runAgentLoop } from '../../src';
import { startScriptedServer } from '../../src/testing';

const fixture = join(__dirname, 'fixtures/standard-schema-output.ts');

describe('a Standard Schema from outside as `output`', () => {
  it('type-checks with no cast under tsc --init strict flags: Zod 4 and the spec’s own interfaces', () => {
    // The flags `tsc --init` writes that change what a library's types must allow.
    const program = ts.createProgram([fixture], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      types: ['node'],
    });
    // The fixture's own diagnostics: agentcall's source is compiled with the project's flags, not these.
    const file = program.getSourceFile(fixture)!;
    const problems = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map(
      (d) =>
        `line ${ts.getLineAndCharacterOfPosition(file, d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
    expect(problems).toEqual([]);
  });

  it('runs: a Zod 4 schema sends its JSON Schema, checks the answer and gives the parsed value', async () => {
    const Order = z.object({ customer: z.string(), qty: z.number().int().min(1) });
    const server = await startScriptedServer({
      turns: [{ text: '{"customer":"Ada","qty":0}' }, { text: '{"customer":"Ada","qty":2}' }],
    });
    try {
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [{ role: 'user', content: 'Two for Ada' }] },
        tools: [],
        output: Order,
      });
      expect(result.output).toEqual({ customer: 'Ada', qty: 2 });
      const format = server.requests[0]?.body.response_format;
      expect(format).toMatchObject({ type: 'json_schema', json_schema: { schema: { required: ['customer', 'qty'] } } });
      // The first answer failed Zod's check; its issue went back to the model with its path.
      expect(String(server.requests[1]?.body.messages.at(-1)?.content)).toMatch(/qty/);
    } finally {
      await server.close();
    }
  });
});
