/**
 * `agentcall/devtools/queue`: the devtools page over the runs of an `AgentRuns` queue. Apart from
 * `agentcall/devtools` so that the in-process recorder loads without `bullmq` and `ioredis` installed.
 */
export { bullmqRunSource } from './sources/bullmq';
export type { BullmqRunSourceOptions } from './sources/bullmq';
