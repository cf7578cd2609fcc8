import { AgentRuns } from '../../src/bullmq';
import { AgentRunsModule } from '../../src/nestjs';

describe('AgentRunsModule', () => {
  const options = { connection: { host: '127.0.0.1', port: 6379 } };

  it('lives in agentcall/nestjs and provides the AgentRuns of agentcall/bullmq', () => {
    const module = AgentRunsModule.forRoot(options);
    expect(module.module).toBe(AgentRunsModule);
    expect(module.exports).toEqual([AgentRuns]);
  });
});
