import { Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { CancelBus } from './cancel-bus';
import { errorSummary } from './error-summary';
import { RunProcessor } from './run-processor';
import type { ProcessorOptions, TurnJobData } from './run-processor';
import { isToolCallJob, ToolCallProcessor, type ToolCallJobData } from './tool-call-processor';
import type { RunsClient } from '../store/connections';
import type { RunStore } from '../store/run-store';
import type { ToolCallStore } from '../store/tool-call-store';
import type { RunWorkerOptions } from '../types';

/**
 * Default lock of a job, in ms. With the stalled check every third of it, a killed worker's run went on elsewhere
 * in about 6 s (at most lock plus check, 8 s), and a tool had to block the event loop 5.5 s before its call ran
 * twice (`docs/queue.md`, "Recovery and a blocked event loop").
 */
const DEFAULT_LOCK_DURATION_MS = 6000;

/**
 * A BullMQ worker that advances runs (a job per run until it waits, ends or yields) and runs queued tool calls (a job
 * each), and its subscription to cancels.
 */
export class RunWorker {
  private readonly worker: Worker<TurnJobData | ToolCallJobData>;
  private readonly cancels: CancelBus;
  private readonly processor: RunProcessor;
  private readonly toolCalls: ToolCallProcessor;
  private closed?: Promise<void>;
  private readonly ready: Promise<void>;

  /**
   * @internal Made by `AgentRuns.worker()`.
   * @param client the runs' client for commands (theirs to close): BullMQ sends the worker's commands on it, and makes
   * the worker's blocking connection as its duplicate
   */
  constructor(
    client: RunsClient,
    queueName: string,
    private readonly store: RunStore,
    options: RunWorkerOptions,
    processorOptions: Omit<ProcessorOptions, 'setup'>,
    toolCallStore: ToolCallStore,
  ) {
    this.cancels = new CancelBus(store);
    const processor = new RunProcessor(store, this.cancels, { ...processorOptions, setup: options.setup });
    this.processor = processor;
    const toolCalls = new ToolCallProcessor(toolCallStore, options.setup);
    this.toolCalls = toolCalls;
    const lockDuration = options.lockDuration ?? DEFAULT_LOCK_DURATION_MS;
    // Told apart by the job's name: a run's jobs are `turn`s, and nothing is added to their path but this test.
    const dispatch = (job: Job<TurnJobData | ToolCallJobData>) =>
      isToolCallJob(job) ? toolCalls.process(job) : processor.process(job as Job<TurnJobData>);
    this.worker = new Worker<TurnJobData | ToolCallJobData>(queueName, dispatch, {
      // BullMQ leaves a client it is given open.
      connection: client,
      concurrency: options.concurrency ?? 1,
      lockDuration,
      // Renewed every quarter, not BullMQ's half: a blocked event loop must last three quarters of the lock, not
      // half, before a renewal comes too late (docs/queue.md, "Recovery and a blocked event loop").
      lockRenewTime: lockDuration / 4,
      stalledInterval: options.stalledInterval ?? Math.round(lockDuration / 3),
      maxStalledCount: options.maxStalledCount ?? 3,
    });
    // A job BullMQ gives up on (attempts spent, stalled too often) fails its run, unless the run moved on; a tool
    // call's fails the call, unless it ended.
    this.worker.on('failed', (job: Job<TurnJobData | ToolCallJobData> | undefined, error: Error) => {
      if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
      const failed = isToolCallJob(job)
        ? toolCallStore.end(job.data.callId, { status: 'failed', error: errorSummary(error) })
        : this.store.fail((job.data as TurnJobData).runId, (job.data as TurnJobData).seq, errorSummary(error));
      failed.catch(() => undefined);
    });
    // BullMQ reports connection trouble here; without a listener Node would throw it.
    this.worker.on('error', () => undefined);
    this.ready = Promise.all([this.cancels.start(), this.worker.waitUntilReady()]).then(() => undefined);
    // Readiness is awaited through `waitUntilReady`; an unobserved failure here must not crash the process.
    this.ready.catch(() => undefined);
  }

  /** Resolves once the worker takes jobs and hears cancels. */
  waitUntilReady(): Promise<void> {
    return this.ready;
  }

  /**
   * Take no new jobs, let each job in hand finish its turn and hand its run back to the queue at that checkpoint
   * (or, with `force`, drop the jobs for other workers to retry), then disconnect.
   */
  close(force = false): Promise<void> {
    this.closed ??= (async () => {
      this.processor.stop();
      await this.worker.close(force);
      await Promise.all([this.cancels.close(), this.toolCalls.close()]);
    })();
    return this.closed;
  }
}
