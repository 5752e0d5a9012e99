/**
 * A bound on how many jobs (password hashes: scrypt, CPU-bound, ~100 ms and 128 MB each at the
 * production cost) run at once, with the rest waiting fairly per client address: the waiting jobs
 * are kept in one FIFO per key, and a free place goes to the waiting key with the fewest jobs running
 * (ties: the keys in turn, round robin), not to the oldest job. A key may also be bounded on its own
 * (`perKey`): with the app's hashing queue (one place per CPU, one hash per address), 70 wrong
 * passwords from one address hold one place however many wait, and a sign-in from another address
 * starts on another place at once instead of waiting for a hash of the flood to end; many addresses
 * share the places evenly. The work beyond the bound waits here instead of in libuv's thread pool.
 *
 * A job may be marked `first` (a sign-in from an address its username signed in from before: the
 * owner's, as far as the server can tell): such jobs wait in a lane of their own, served before the
 * others (within their key's own bound), so the owner is not made to wait behind a flood spread over
 * many addresses either.
 *
 * In-process on purpose: it shares this process's CPU, not a cluster-wide resource; each server
 * process bounds its own hashing.
 */
interface Waiting {
  readonly key: string;
  readonly start: () => void;
}

export class FairQueue {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  /** Waiting jobs per key, in arrival order; the Map's order is the round-robin order of the keys. */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** The jobs marked `first`, in arrival order. */
  private readonly firstLane: Waiting[] = [];

  /** `concurrency`: jobs at once in all; `perKey`: jobs at once of one key (no bound of its own by default). */
  constructor(
    readonly concurrency: number,
    readonly perKey: number = Number.MAX_SAFE_INTEGER,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('FairQueue: concurrency must be a whole number of at least 1');
    if (!Number.isInteger(perKey) || perKey < 1) throw new Error('FairQueue: perKey must be a whole number of at least 1');
  }

  /** Runs `job` once a place is free and it is `key`'s turn (or, marked `first`, once a place is free for its key). */
  async run<T>(key: string, job: () => Promise<T>, options: { first?: boolean } = {}): Promise<T> {
    await new Promise<void>((start) => {
      if (options.first) this.firstLane.push({ key, start });
      else this.enqueue(key, start);
      this.pump();
    });
    try {
      return await job();
    } finally {
      this.running--;
      const left = this.runningByKey.get(key)! - 1;
      if (left === 0) this.runningByKey.delete(key);
      else this.runningByKey.set(key, left);
      this.pump();
    }
  }

  /** How many jobs run now, and how many wait (for tests and the bench). */
  get stats(): { running: number; waiting: number } {
    let waiting = this.firstLane.length;
    for (const jobs of this.waiting.values()) waiting += jobs.length;
    return { running: this.running, waiting };
  }

  /** How many jobs of `key` run or wait now. */
  load(key: string): number {
    return this.runningOf(key) + (this.waiting.get(key)?.length ?? 0) + this.firstLane.filter((job) => job.key === key).length;
  }

  private enqueue(key: string, start: () => void): void {
    const jobs = this.waiting.get(key);
    if (jobs) jobs.push(start);
    else this.waiting.set(key, [start]);
  }

  private runningOf(key: string): number {
    return this.runningByKey.get(key) ?? 0;
  }

  private begin(key: string, start: () => void): void {
    this.running++;
    this.runningByKey.set(key, this.runningOf(key) + 1);
    start();
  }

  /**
   * While a place is free: the first job of the `first` lane whose key is under its bound, else the
   * waiting key under its bound with the fewest jobs running (the first in turn among equals), which
   * then goes to the back of the turn.
   */
  private pump(): void {
    while (this.running < this.concurrency) {
      const at = this.firstLane.findIndex((job) => this.runningOf(job.key) < this.perKey);
      if (at >= 0) {
        const [job] = this.firstLane.splice(at, 1);
        this.begin(job.key, job.start);
        continue;
      }
      let chosen: [string, (() => void)[]] | undefined;
      let fewest = Infinity;
      for (const entry of this.waiting) {
        const running = this.runningOf(entry[0]);
        if (running < fewest && running < this.perKey) [chosen, fewest] = [entry, running];
        if (running === 0) break;
      }
      if (!chosen) return;
      const [key, jobs] = chosen;
      const start = jobs.shift()!;
      this.waiting.delete(key);
      if (jobs.length > 0) this.waiting.set(key, jobs);
      this.begin(key, start);
    }
  }
}
