/**
 * The real Node `process`, and a watcher for the events a leak or a lost promise shows up as.
 *
 * Jest runs each test file in a vm context whose `process` is a copy: listeners added to it never see the
 * `unhandledRejection` or `warning` events Node emits on the real one. A function built by the host realm's
 * `Function` constructor (reached through `Buffer`, a host object) evaluates in the host's global scope, where
 * `process` is the real one.
 */
export const hostProcess: NodeJS.Process = (Buffer as unknown as { constructor: FunctionConstructor }).constructor(
  'return process',
)() as NodeJS.Process;

/** What {@link watchProcess} saw. */
export type ProcessWatch = {
  unhandledRejections: unknown[];
  /** Every process warning, by name and message. */
  warnings: { name: string; message: string }[];
  /** Detach the listeners (after letting pending warnings, which Node emits on a later tick, arrive). */
  stop(): Promise<void>;
};

/** Listen on the real process for unhandled rejections and warnings until `stop()`. */
export function watchProcess(): ProcessWatch {
  const watch: ProcessWatch = {
    unhandledRejections: [],
    warnings: [],
    async stop() {
      // Warnings are emitted on process.nextTick, unhandled rejections after the microtask queue drains.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      hostProcess.off('unhandledRejection', onRejection);
      hostProcess.off('warning', onWarning);
    },
  };
  const onRejection = (reason: unknown) => watch.unhandledRejections.push(reason);
  const onWarning = (warning: Error) => watch.warnings.push({ name: warning.name, message: warning.message });
  hostProcess.on('unhandledRejection', onRejection);
  hostProcess.on('warning', onWarning);
  return watch;
}

/** Register hooks that fail each test of the enclosing `describe` in which a promise rejected unobserved. */
export function expectNoUnhandledRejections(): void {
  let watch: ProcessWatch;
  beforeEach(() => {
    watch = watchProcess();
  });
  afterEach(async () => {
    await watch.stop();
    expect(watch.unhandledRejections).toEqual([]);
  });
}
