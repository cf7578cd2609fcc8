/**
 * A separate Node process that runs (or resumes) an agent run against a scripted server, for the tests that prove
 * a run state written to disk by one process resumes in another. Configured by the WORKER env variable (JSON):
 *
 * - `pause`: start a run; write its final state to `stateFile`.
 * - `resume`: resume from `stateFile` with `decisions`; write the final state back.
 * - `crash` / `recover`: a run with a file-backed journal and a checkpoint file; in `crash` the `slow` tool never
 *   ends (the parent kills the process), in `recover` it answers at once.
 *
 * Every tool execution is appended to `executionsFile` as one JSON line, and the run's outcome is printed as one
 * JSON line on stdout (`started <call id>` lines announce tool starts).
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import OpenAI from 'openai';
import { runAgentLoop, type Decision, type RunState, type ToolDefinition, type ToolExecuteResult } from '../../src';
import type { ToolJournal } from '../../src/toolCall/journal';

type WorkerConfig = {
  mode: 'pause' | 'resume' | 'crash' | 'recover';
  baseURL: string;
  apiKey: string;
  stateFile: string;
  executionsFile: string;
  journalFile?: string;
  decisions?: Record<string, Decision>;
};

const config = JSON.parse(process.env.WORKER ?? '{}') as WorkerConfig;

function tool(name: string, execute: ToolDefinition['execute'], extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    schema: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
    execute: async (ctx) => {
      appendFileSync(
        config.executionsFile,
        JSON.stringify({ pid: process.pid, id: ctx.call.id, key: ctx.idempotencyKey }) + '\n',
      );
      process.stdout.write(`started ${ctx.call.id}\n`);
      return execute(ctx);
    },
    ...extra,
  };
}

/** A journal in a JSON-lines file, written synchronously so a SIGKILL right after `set` loses nothing. */
function fileJournal(file: string): ToolJournal {
  const read = () =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { key: string; result: ToolExecuteResult })
      : [];
  return {
    get: async (key) => read().find((entry) => entry.key === key)?.result,
    set: async (key, result) => appendFileSync(file, JSON.stringify({ key, result }) + '\n'),
  };
}

/** Replace the file in one step, so a kill mid-write leaves the previous checkpoint intact. */
function writeState(state: RunState): void {
  writeFileSync(`${config.stateFile}.tmp`, JSON.stringify(state));
  renameSync(`${config.stateFile}.tmp`, config.stateFile);
}

async function main(): Promise<void> {
  const client = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, maxRetries: 0 });
  const tools = [
    tool('lookup', async ({ call }) => ({ response: `looked up in ${process.pid} (${call.id})` })),
    tool('pay', async ({ idempotencyKey }) => ({ response: `paid with key ${idempotencyKey}` }), {
      needsApproval: true,
    }),
    tool('charge', async ({ call }) => ({ response: `charged ${call.id}` })),
    tool('slow', async ({ call }) =>
      config.mode === 'crash' ? new Promise<ToolExecuteResult>(() => undefined) : { response: `slow ${call.id}` },
    ),
  ];
  const resumeFrom =
    config.mode === 'pause' || config.mode === 'crash'
      ? undefined
      : (JSON.parse(readFileSync(config.stateFile, 'utf8')) as RunState);
  const crashTest = config.mode === 'crash' || config.mode === 'recover';
  const result = await runAgentLoop({
    client,
    body: { model: 'm', messages: [{ role: 'user', content: 'go' }] },
    tools,
    ...(config.mode === 'pause' || config.mode === 'crash' ? { runId: 'run-on-disk' } : {}),
    ...(resumeFrom ? { resumeFrom } : {}),
    ...(config.decisions ? { decisions: config.decisions } : {}),
    ...(crashTest ? { journal: fileJournal(config.journalFile!), onCheckpoint: writeState } : {}),
  });
  if (!crashTest) writeState(result.state);
  process.stdout.write(
    JSON.stringify({ pid: process.pid, stopReason: result.stopReason, runTimes: result.runTimes }) + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
