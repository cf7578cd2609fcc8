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
    // The browser tests drive the page, not the stream parser; once is enough (and one screenshot).
    '/test/devtools/browser\\.test\\.ts$',
  ],
  setupFiles: [...base.setupFiles, '<rootDir>/test/helpers/sdk-stream-parser.ts'],
};

const config: Config = process.env.AGENTCALL_TEST_BOTH_PARSERS
  ? { testTimeout: base.testTimeout, projects: [{ ...all, displayName: 'lean-stream' }, sdkStream] }
  : all;

export default config;
