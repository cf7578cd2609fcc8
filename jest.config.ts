import type { Config } from 'jest';

type Project = NonNullable<Config['projects']>[number] & object;

/**
 * The system tier: suites that start processes, Redis, Nest HTTP apps or a browser, compile and run the samples, or
 * measure growth under load. `npm run test:system` runs them; `npm test` runs everything else (the in-process tier:
 * the real openai SDK over real HTTP on 127.0.0.1, all in the test's own process). CI runs both.
 */
const SYSTEM_SUITES = [
  '/test/bullmq/',
  '/test/samples/',
  '/test/devtools/browser\\.test\\.ts$',
  '/test/devtools/bullmq-source\\.test\\.ts$',
  '/test/devtools/export-test\\.test\\.ts$',
  '/test/toolCall/journal\\.crash\\.test\\.ts$',
  '/test/agentCall/resume-across-processes\\.test\\.ts$',
  '/test/reliability/load\\.test\\.ts$',
  '/test/mcp/mcp-tools\\.test\\.ts$',
  '/test/security/mcp-remote-tools\\.test\\.ts$',
  '/test/security/linear-time\\.test\\.ts$',
  '/test/security/stream-limits\\.test\\.ts$',
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
  '<rootDir>/test/security/*.test.ts',
  '<rootDir>/test/samples/!(quickstart|mcp|tools|testing).test.ts',
  '<rootDir>/test/bullmq/!(multi-process).test.ts',
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
  // The loop tests start real HTTP servers; a generous timeout keeps a loaded 2-core CI box from flaking.
  testTimeout: 30_000,
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

const projects = [all, ...(process.env.AGENTCALL_TEST_BOTH_PARSERS ? [sdkStream] : [])];

const config: Config = { testTimeout: base.testTimeout, projects };

export default config;
