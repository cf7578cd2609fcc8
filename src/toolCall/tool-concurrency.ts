/** A cap shared by some jobs: at most `limit` of the jobs with the same `key` run at once. */
export type JobCap = { key: object; limit: number };

/** Arguments of {@link runCapped}. */
export type RunCappedProps = {
  /** Jobs are numbered 0 … count − 1, and start in that order unless their cap holds them back. */
  count: number;
  /** Most jobs running at once, whatever their caps. */
  concurrency: number;
  /** The cap a job shares with others (a tool's `concurrency`), if any. */
  capOf: (index: number) => JobCap | undefined;
  /** Run one job; it must not reject (a rejection ends the whole with it). */
  run: (index: number) => Promise<void>;
};

type Group = { running: number; waiting: number[]; head: number };

/**
 * Run jobs at most `concurrency` at once, and at most `limit` at once of those that share a cap: a job whose cap is
 * full waits for a job of its own cap to end, while the jobs after it that are free to run start in its place. Each
 * job is looked at once when it is reached and once more if it waited, so the work is linear in the number of jobs.
 *
 * @internal
 */
export function runCapped({ count, concurrency, capOf, run }: RunCappedProps): Promise<void> {
  if (count <= 0) return Promise.resolve();
  const slots = Math.max(1, Math.min(Math.floor(concurrency) || 1, count));
  const groups = new Map<object, Group>();
  let next = 0;
  let running = 0;
  let ended = 0;
  return new Promise<void>((resolve, reject) => {
    const start = (index: number, group: Group | undefined) => {
      running++;
      if (group) group.running++;
      run(index).then(() => end(group), reject);
    };
    const end = (group: Group | undefined) => {
      running--;
      ended++;
      // A job that waited for this cap is older than any not yet reached, and no other waiting job's cap has room
      // (a cap with waiting jobs is full), so it takes the freed place.
      if (group) {
        group.running--;
        if (group.head < group.waiting.length) start(group.waiting[group.head++], group);
      }
      fill();
      if (ended === count) resolve();
    };
    const fill = () => {
      while (running < slots && next < count) {
        const index = next++;
        const cap = capOf(index);
        if (!cap) {
          start(index, undefined);
          continue;
        }
        let group = groups.get(cap.key);
        if (!group) groups.set(cap.key, (group = { running: 0, waiting: [], head: 0 }));
        if (group.running >= Math.max(1, Math.floor(cap.limit) || 1)) group.waiting.push(index);
        else start(index, group);
      }
    };
    fill();
  });
}
