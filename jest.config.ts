import type { Config } from 'jest';

type Project = NonNullable<Config['projects']>[number] & object;

const base = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The loop tests start real HTTP servers; a generous timeout keeps a loaded 2-core CI box from flaking.
  testTimeout: 30_000,
  setupFiles: ['<rootDir>/test/helpers/fast-check-seed.ts'],
} satisfies Project;

const all: Project = { ...base, roots: ['<rootDir>/test'], testMatch: ['**/*.test.ts'] };

/**
 * Every suite that reads a model's stream again, with the openai SDK's own stream parser instead of the default lean one: both
 * paths must pass every test. `AGENTCALL_TEST_BOTH_PARSERS=1 npx jest` runs it beside the whole suite (CI does).
 */
const sdkStream: Project = {
  ...base,
  displayName: 'sdk-stream',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The differential test compares both parsers itself; the suites that never read a model's stream (definitions,
  // decorators, metadata, errors, docs) have nothing to run twice.
  testPathIgnorePatterns: [
    '/node_modules/',
    'lean-stream\\.property\\.test\\.ts$',
    '/test/(definitions|decorators|metadata|errors|docs)/',
  ],
  setupFiles: [...base.setupFiles, '<rootDir>/test/helpers/sdk-stream-parser.ts'],
};

/**
 * The suites that prove the loop over a model, again over the Responses API: `wire: 'auto'` picks it for every SDK
 * client (test/helpers/responses-wire.ts), so each scenario runs on both wires from one file.
 * `AGENTCALL_TEST_BOTH_PARSERS=1 npx jest` runs it beside the whole suite (CI does).
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
  roots: ['<rootDir>/test'],
  testMatch: [
    '<rootDir>/test/agentCall/*.test.ts',
    '<rootDir>/test/reliability/*.test.ts',
    '<rootDir>/test/security/*.test.ts',
    '<rootDir>/test/nestjs/*.test.ts',
    '<rootDir>/test/mcp/agent-loop.test.ts',
    '<rootDir>/test/integration/*.test.ts',
    '<rootDir>/test/samples/{agent-loop,quickstart,demo,testing,handwritten,tools,nestjs-app}.test.ts',
  ],
  testPathIgnorePatterns: [
    '/node_modules/',
    // They choose their wire themselves.
    '/test/agentCall/responses-wire\\.test\\.ts$',
    '/test/integration/agents-js-responses\\.test\\.ts$',
    // Its servers write Chat Completions chunks by hand; the Responses reader's limits are in test/llm.
    '/test/security/stream-limits\\.test\\.ts$',
    // They never reach a model (tools, budgets, schemas, module wiring): nothing to run on another wire.
    '/test/agentCall/(budget|loop-guard)\\.test\\.ts$',
    '/test/reliability/(assert-valid-history|decorated-validation\\.property|run-tool\\.property)\\.test\\.ts$',
    '/test/security/(linear-time|tool-names)\\.test\\.ts$',
    '/test/nestjs/(agent-tools\\.module|core-isolation|log-schema-report)\\.test\\.ts$',
  ],
  setupFiles: [...base.setupFiles, '<rootDir>/test/helpers/responses-wire.ts'],
};

const config: Config = process.env.AGENTCALL_TEST_BOTH_PARSERS
  ? { testTimeout: base.testTimeout, projects: [{ ...all, displayName: 'lean-stream' }, sdkStream, responsesWire] }
  : all;

export default config;
