import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { traceDemoRun } from '../../samples/tracing/trace-demo';

/** The ```text block under the page's "The trace of the demo run" heading. */
function documentedTree(): string {
  const page = readFileSync(join(__dirname, '../../docs/tracing.md'), 'utf8');
  const section = page.split(/^## /m).find((part) => part.startsWith('The trace of the demo run\n'));
  const block = section && /^```text\n([\s\S]*?)\n```$/m.exec(section);
  if (!block) throw new Error('docs/tracing.md has no ```text block under "## The trace of the demo run"');
  return block[1];
}

describe('samples/tracing', () => {
  it('prints the same span tree on every run: one trace across the pause for approval', async () => {
    const first = await traceDemoRun();
    expect(await traceDemoRun()).toBe(first);
    expect(first.split('\n')[0]).toBe('12 spans in 1 trace');
    expect(first).toMatch(/^└─ invoke_agent$/m);
    expect(first).toMatch(/^ {3}└─ invoke_agent$/m);
    expect(first).not.toMatch(/time_to_first_chunk|[0-9a-f]{16}/);
  });

  it('runs on the wire it is given, with the same spans', async () => {
    const tree = await traceDemoRun({ wire: 'responses' });
    expect(tree.split('\n')[0]).toBe('12 spans in 1 trace');
    expect(tree).toMatch(/^ {3}└─ invoke_agent$/m);
  });

  it('is what docs/tracing.md shows as the trace of the demo run', async () => {
    expect(documentedTree()).toBe(await traceDemoRun());
  });
});
