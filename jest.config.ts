import type { Config } from 'jest';
import { stretchedTimeout } from './test/helpers/stretched-timeout';

type Project = NonNullable<Config['projects']>[number] & object;

/**
 * The system tier: suites that start processes, Redis, Nest HTTP apps or a browser, compile sources or run the
 * samples, run the longest properties, or measure growth under load. `npm run test:system` runs them; `npm test` runs everything else (the in-process tier:
 * the real openai SDK over real HTTP on 127.0.0.1, all in the test's own process). CI runs both.
 */
const SYSTEM_SUITES = [
  '/test/bullmq/',
  '/test/samples/',
  '/test/devtools/browser(-[a-z-]+)?\\.test\\.ts$',
  '/test/devtools/bullmq-source\\.test\\.ts$',
  '/test/devtools/export-(test|every-stop)\\.test\\.ts$',
  '/test/devtools/cli\\.test\\.ts$',
  // A child process that compiles the sources as it starts.
  '/test/devtools/no-queue-packages\\.test\\.ts$',
  '/test/toolCall/journal\\.crash\\.test\\.ts$',
  '/test/agents/agent-runs\\.crash\\.test\\.ts$',
  '/test/agents/agent-runs-paused-sibling\\.test\\.ts$',
  '/test/agents/agent-queue-events\\.test\\.ts$',
  '/test/agents/agent-sample-queue\\.test\\.ts$',
  '/test/agentCall/resume-across-processes\\.test\\.ts$',
  '/test/reliability/load\\.test\\.ts$',
  '/test/mcp/mcp-tools\\.test\\.ts$',
  '/test/mcp/conformance\\.test\\.ts$',
  '/test/mcp/remote-ask-back\\.queue\\.test\\.ts$',
  '/test/mcp/remote-task\\.queue\\.test\\.ts$',
  // HTTP servers, and polls at the interval the served tasks suggest (a second).
  '/test/mcp/remote-task-tools-2026\\.test\\.ts$',
  '/test/mcp/served-tasks\\.queue\\.test\\.ts$',
  '/test/nestjs/mcp-registry-members\\.test\\.ts$',
  '/test/security/mcp-remote-tools\\.test\\.ts$',
  '/test/security/linear-time\\.test\\.ts$',
  '/test/security/stream-limits\\.test\\.ts$',
  '/test/llm/reader-growth\\.test\\.ts$',
  // The longest property runs (a sixth of the tier for profile-agreement alone; the next three about 30 CPU-seconds).
  '/test/definitions/profiles/profile-agreement\\.property\\.test\\.ts$',
  '/test/definitions/schema-validation-agreement\\.property\\.test\\.ts$',
  '/test/llm/(lean-stream|responses-parsers)\\.property\\.test\\.ts$',
  '/test/agentCall/tool-search\\.property\\.test\\.ts$',
  '/test/reliability/decorated-validation\\.property\\.test\\.ts$',
  '/test/agents/agent-trees(-crash)?\\.property\\.test\\.ts$',
  // They run the TypeScript compiler over sources or generated files (1-6 CPU-seconds each), as the sample suites do.
  '/test/architecture/exports\\.test\\.ts$',
  '/test/docs/agent-loop-props\\.test\\.ts$',
  '/test/output/standard-schema-fit\\.test\\.ts$',
  '/test/errors/minified-error-names\\.test\\.ts$',
  '/test/devtools/export-safety\\.test\\.ts$',
  // 200 sessions at once against one scripted server: a load test of the kit, as reliability/load is of the loop.
  '/test/testing/scripted-sessions\\.test\\.ts$',
];

/**
 * The suites that read a model's stream through the library in this process: they run a second time on the openai
 * SDK's own stream parser (`sdk-stream`). Suites that only test definitions, the test kit's own bytes, or work in a
 * child process (which the parser switch does not reach) gain nothing from a second run.
 */
const STREAM_SUITES = [
  '<rootDir>/test/agentCall/!(resume-across-processes).test.ts',
  '<rootDir>/test/llm/!(lean-stream.property|responses-parsers.property).test.ts',
  '<rootDir>/test/integration/*.test.ts',
  '<rootDir>/test/mcp/agent-loop.test.ts',
  '<rootDir>/test/nestjs/*.test.ts',
  '<rootDir>/test/providers/*.test.ts',
  '<rootDir>/test/reliability/!(load).test.ts',
  // The growth checks and the MCP surface's own attacks read no model stream; stream-limits runs each parser itself.
  '<rootDir>/test/security/!(linear-time|mcp-remote-tools|mcp-http|mcp-nest|stream-limits).test.ts',
  '<rootDir>/test/samples/!(quickstart|mcp|tools|testing).test.ts',
  // The kill-at-every-step run reads its model in worker processes, which the parser switch does not reach.
  '<rootDir>/test/bullmq/!(multi-process|kill-at-every-step).test.ts',
  '<rootDir>/test/toolCall/journal.test.ts',
];

const tier = process.env.AGENTCALL_TEST_TIER ?? 'fast';
if (!['fast', 'system', 'all'].includes(tier))
  throw new Error(`AGENTCALL_TEST_TIER is fast, system or all, not ${tier}`);

/** What every project leaves out for the chosen tier: the system suites, or everything else. */
const tierIgnore: Record<string, string[]> = {
  fast: SYSTEM_SUITES,
  system: [`^(?!.*(?:${SYSTEM_SUITES.join('|')}))`],
  all: [],
};

const base = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The loop tests start real HTTP servers; a generous timeout, stretched by the load, keeps a busy box from flaking.
  testTimeout: stretchedTimeout(30_000),
  setupFiles: ['<rootDir>/test/helpers/fast-check-seed.ts'],
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', ...tierIgnore[tier]],
} satisfies Project;

const all: Project = { ...base, displayName: 'lean-stream', testMatch: ['**/*.test.ts'] };

/**
 * The stream-reading suites again, with the openai SDK's own stream parser instead of the default lean one: both
 * paths must pass every test. `AGENTCALL_TEST_BOTH_PARSERS=1` adds it (CI does).
 */
const sdkStream: Project = {
  ...base,
  displayName: 'sdk-stream',
  testMatch: STREAM_SUITES,
  setupFiles: [...base.setupFiles, '<rootDir>/test/helpers/sdk-stream-parser.ts'],
};

/**
 * The suites that prove the loop over a model, again over the Responses API: `wire: 'auto'` picks it for every SDK
 * client (test/helpers/responses-wire.ts), so each scenario runs on both wires from one file.
 * `AGENTCALL_TEST_BOTH_PARSERS=1` adds it, with `sdk-stream` (CI does).
 *
 * Left out, because what they assert is the chat wire itself: test/providers (the chat corpus replays Chat
 * Completions recordings; it has its own Responses recordings), test/testing (the scripted server's chat route,
 * chunk shapes and `stream_options`; its Responses route has its own suites), test/llm (each wire's own reader and
 * request), the Responses wire's own suites, test/samples/tracing.test.ts (it compares the trace docs/tracing.md
 * prints, chat response ids included), and the suites listed below with their reason. Where a number is the
 * wire's own (an event position), a test reads it from test/helpers/wire-under-test.ts.
 */
const responsesWire: Project = {
  ...base,
  displayName: 'responses-wire',
  testMatch: [
    '<rootDir>/test/agentCall/*.test.ts',
    '<rootDir>/test/reliability/*.test.ts',
    '<rootDir>/test/security/*.test.ts',
    '<rootDir>/test/nestjs/*.test.ts',
    '<rootDir>/test/mcp/agent-loop.test.ts',
    '<rootDir>/test/integration/*.test.ts',
    '<rootDir>/test/samples/{agent-loop,quickstart,demo,testing,handwritten,reminder-tool,tools,nestjs-app,output}.test.ts',
  ],
  testPathIgnorePatterns: [
    ...base.testPathIgnorePatterns,
    // They choose their wire themselves.
    '/test/agentCall/responses-wire\\.test\\.ts$',
    '/test/integration/agents-js-responses\\.test\\.ts$',
    '/test/reliability/retries\\.test\\.ts$',
    // 200 runs at once and a heap check: a load test of the loop, run once.
    '/test/reliability/load\\.test\\.ts$',
    // Its servers write Chat Completions chunks by hand; the Responses reader's limits are in test/llm.
    '/test/security/stream-limits\\.test\\.ts$',
    // They never reach a model (tools, budgets, schemas, module wiring): nothing to run on another wire.
    '/test/agentCall/(context-budget|loop-guard)\\.test\\.ts$',
    '/test/reliability/(assert-valid-history|decorated-validation\\.property|run-tool\\.property)\\.test\\.ts$',
    '/test/security/(linear-time|tool-names|mcp-remote-tools|mcp-http|mcp-nest)\\.test\\.ts$',
    '/test/nestjs/(agent-tools\\.module|core-isolation|log-schema-report)\\.test\\.ts$',
  ],
  setupFiles: [...base.setupFiles, '<rootDir>/test/helpers/responses-wire.ts'],
};

const projects = [all, ...(process.env.AGENTCALL_TEST_BOTH_PARSERS ? [sdkStream, responsesWire] : [])];

// The in-process tier uses both cores of a 2-core machine (Jest's default leaves one idle); the system tier keeps
// one worker, so its processes, Redis servers and growth checks do not compete with each other.
// A worker with nothing left open still has to be scheduled to exit: Jest force-exits one that takes 500 ms and calls it
// a leak, which a trivial suite (test/text) met one run in three at load 20. The wait stretches with the load like
// every timeout here; real leaks are what `--detectOpenHandles` (CI) reports.
const config: Config = {
  testTimeout: base.testTimeout,
  workerGracefulExitTimeout: stretchedTimeout(500),
  projects,
  ...(tier === 'fast' ? { maxWorkers: 2 } : {}),
};

export default config;
