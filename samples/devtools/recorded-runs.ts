import type OpenAI from 'openai';
import { runAgentLoop } from '../../src';
import type { Decision, RunAgentCallProps, RunState, ToolDefinition } from '../../src';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import type { Devtools } from '../../src/devtools';

/**
 * The in-process way: a recorder observes the app's own `runAgentLoop` calls, and the devtools page shows them.
 * `resume` lets the page's approve and reject buttons continue a waiting run.
 */
export async function watchRuns(
  client: OpenAI,
  tools: ToolDefinition[],
): Promise<{ devtools: Devtools; ask: (question: string) => Promise<string> }> {
  const recorder = createRunRecorder({
    maxRuns: 20,
    resume: ({ state, decisions }) => continueRun(state, decisions),
  });
  const devtools = await startDevtools({ source: recorder.source });
  console.log(`devtools: ${devtools.url}`);

  const run = async (props: RunAgentCallProps) => {
    const result = await runAgentLoop({ ...props, ...recorder.hooks(props) });
    recorder.finish(result);
    return result;
  };
  const continueRun = (state: RunState, decisions: Record<string, Decision>) =>
    run({ client, tools, body: { model: 'gpt-4o-mini', messages: [] }, resumeFrom: state, decisions });

  const ask = async (question: string) => {
    const result = await run({
      client,
      tools,
      body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] },
    });
    return result.text;
  };
  return { devtools, ask };
}
