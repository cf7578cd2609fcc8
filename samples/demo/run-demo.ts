import OpenAI from 'openai';
import {
  getErrText,
  runAgentLoop,
  type ChatCompletionMessageParam,
  type Decision,
  type PendingCall,
  type RunAgentResponse,
} from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { sampleTools, type AskUserInteractive } from '../tools';
import { TerminalRenderer, type Output } from './renderer';
import { demoScript } from './scripted-model';
import { parseDemoArgs } from './wire-option';

/** Everything the demo touches, injected so tests can drive it. */
export type DemoIo = {
  args: string[];
  env: Record<string, string | undefined>;
  out: Output;
  err: Output;
  color?: boolean;
  /** Answers `ask_user` questions; without it the user is reported unavailable. */
  ask?: ((question: AskUserInteractive) => Promise<string>) | undefined;
  /**
   * Answers a call that needs approval with the line the user typed: `y`, or `n` and an optional reason. Without
   * it the embedded model's user approves the first share and refuses the second, and a real model's is refused.
   */
  confirm?: ((prompt: string) => Promise<string>) | undefined;
};

/** What the embedded model's user types at the approval prompts when nobody is at the terminal. */
const SCRIPTED_CONFIRMATIONS = ['y', 'n Only Alex, please: the team does not need it'];
const NOBODY_TO_CONFIRM = 'n Nobody is at the terminal to approve this';

const MAX_PROMPT_LENGTH = 4000;
const USAGE =
  'usage: npm run demo -- [--wire auto|chat|responses] "<prompt>"\n' +
  '  e.g. npm run demo -- "What\'s the weather in Rome? Add a to-do to book a table."\n';
const MAX_RESUMES = 3;
const SYSTEM_PROMPT =
  "You are a helpful assistant. You can look up weather, calculate, and manage the user's to-do list with your tools. " +
  'Use tools for facts and arithmetic instead of guessing. If a tool answers with an error, read it and correct your call. Be brief.';

/** Run the sample agent once; resolves with the process exit code. */
export async function runDemo(io: DemoIo): Promise<number> {
  const parsed = parseDemoArgs(io.args, io.env);
  if ('error' in parsed) {
    io.err.write(`error: ${parsed.error}\n${USAGE}`);
    return 2;
  }
  const { prompt, wire } = parsed;
  if (!prompt || prompt.length > MAX_PROMPT_LENGTH) {
    io.err.write(
      prompt ? `error: the prompt is ${prompt.length} characters; the limit is ${MAX_PROMPT_LENGTH}\n` : USAGE,
    );
    return 2;
  }

  let server: ScriptedServer | undefined;
  let client: OpenAI;
  let model: string;
  const renderer = new TerminalRenderer(io.out, io.color ?? false);
  if (io.env.OPENAI_API_KEY) {
    model = io.env.OPENAI_MODEL || 'gpt-4o-mini';
    client = new OpenAI({
      apiKey: io.env.OPENAI_API_KEY,
      baseURL: io.env.OPENAI_BASE_URL || undefined,
      maxRetries: 1,
      timeout: 60_000,
    });
    renderer.note(`agentcall demo · model ${model} at ${client.baseURL}${wire ? ` · wire ${wire}` : ''}`);
  } else {
    server = await startScriptedServer({ turns: demoScript(prompt), chunkSize: 6 });
    client = server.client();
    model = 'scripted-demo-model';
    renderer.note(
      'No OPENAI_API_KEY set: running against the embedded scripted model from agentcall/testing (set OPENAI_API_KEY, and optionally OPENAI_BASE_URL and OPENAI_MODEL, to use a real model).',
    );
  }
  renderer.note(`> ${prompt}\n`);

  try {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: prompt },
    ];
    const base = {
      client,
      body: { model, messages, temperature: 0.2 },
      tools: sampleTools(),
      maxRunAgentTimes: 12,
      // Each run (and each resume) chooses its wire; without one, runAgentLoop picks it from the base URL.
      ...(wire && { wire }),
      ...renderer.hooks(),
    };
    const scripted = server ? [...SCRIPTED_CONFIRMATIONS] : [];
    const confirm = io.confirm ?? (async () => scripted.shift() ?? NOBODY_TO_CONFIRM);
    let result: RunAgentResponse = await runAgentLoop(base);
    // The run stops whenever it waits for the user; each pending call gets a decision and the run resumes from its state.
    for (let resumes = 0; result.stopReason === 'interactive' && resumes < MAX_RESUMES; resumes++) {
      const decisions: Record<string, Decision> = {};
      for (const pending of result.state.pending) {
        decisions[pending.call.id] = await decide(pending, io, confirm, renderer);
      }
      result = await runAgentLoop({ ...base, resumeFrom: result.state, decisions });
    }
    renderer.summary(result);
    if (result.error !== undefined) {
      io.err.write(`error: ${describeFailure(result.error, client.baseURL)}\n`);
      return 1;
    }
    return 0;
  } finally {
    await server?.close();
  }
}

/** Ask the user about one pending call: approve or refuse it (`y` / `n <reason>`), or answer `ask_user`. */
async function decide(
  pending: PendingCall,
  io: DemoIo,
  confirm: (prompt: string) => Promise<string>,
  renderer: TerminalRenderer,
): Promise<Decision> {
  if (pending.kind === 'interactive') {
    const question = pending.interactive as AskUserInteractive;
    renderer.note(`? ${question.question}`);
    const answer = io.ask
      ? await io.ask(question)
      : 'The user is not available; make a reasonable assumption and say so.';
    renderer.note(`  ${answer}`);
    return { answer: { response: `The user answered: ${answer}` } };
  }
  const prompt = `? Allow ${pending.call.function.name} ${pending.call.function.arguments}? [y / n <reason>]`;
  renderer.note(prompt);
  const line = (await confirm(prompt)).trim();
  renderer.note(`  ${line}`);
  if (/^y(es)?$/i.test(line)) return { approve: true };
  const reason = line.replace(/^no?\b\s*/i, '').trim();
  return reason ? { approve: false, reason } : { approve: false };
}

/** A one-line reason a person can act on. */
function describeFailure(error: unknown, baseURL: string): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return `the model endpoint ${baseURL} did not answer in time`;
  if (error instanceof OpenAI.APIConnectionError)
    return `cannot reach the model endpoint ${baseURL} (check OPENAI_BASE_URL and your network)`;
  if (error instanceof OpenAI.AuthenticationError)
    return 'the endpoint refused the API key (401): check OPENAI_API_KEY';
  if (error instanceof OpenAI.PermissionDeniedError) return 'the API key may not use this model (403)';
  if (error instanceof OpenAI.NotFoundError)
    return `model or endpoint not found (404): check OPENAI_MODEL and OPENAI_BASE_URL (${baseURL})`;
  if (error instanceof OpenAI.RateLimitError) return 'rate limited or out of quota (429)';
  return getErrText(error);
}
