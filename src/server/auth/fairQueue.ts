/**
 * A bound on how many password hashes (scrypt: CPU-bound, ~100 ms and 128 MB each at the production
 * cost) run at once, with the rest waiting fairly per client address: the waiting jobs are kept in one
 * FIFO per key, and a free place goes to the waiting key with the fewest jobs running (ties: the keys
 * in turn, round robin), not to the oldest job. So 70 wrong passwords from one address never keep a
 * sign-in from another address waiting for more than the first place to free up (a single FIFO would
 * put it behind all 70), and many addresses share the places evenly. The work beyond the bound waits here instead of in libuv's thread pool, whose 4
 * threads are shared with file and DNS work and would otherwise fill with hashes.
 *
 * A job may be marked `first` (a sign-in from an address its username signed in from before: the
 * owner's, as far as the server can tell): such jobs wait in a lane of their own, served before the
 * others, so the owner is not made to wait behind a flood spread over many addresses either.
 *
 * In-process on purpose: it shares this process's CPU, not a cluster-wide resource; each server
 * process bounds its own hashing.
 */
export class FairQueue {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  /** Waiting jobs per key, in arrival order; the Map's order is the round-robin order of the keys. */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** The jobs marked `first`, in arrival order. */
  private readonly firstLane: (() => void)[] = [];

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('FairQueue: concurrency must be a whole number of at least 1');
  }

  /** Runs `job` once a place is free and it is `key`'s turn (or, marked `first`, once a place is free). */
  async run<T>(key: string, job: () => Promise<T>, options: { first?: boolean } = {}): Promise<T> {
    if (this.running < this.concurrency && this.waiting.size === 0 && this.firstLane.length === 0) this.running++;
    else if (options.first) await new Promise<void>((start) => this.firstLane.push(start));
    else await new Promise<void>((start) => this.enqueue(key, start));
    this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
    try {
      return await job();
    } finally {
      const left = this.runningByKey.get(key)! - 1;
      if (left === 0) this.runningByKey.delete(key);
      else this.runningByKey.set(key, left);
      this.next();
    }
  }

  /** How many jobs run now, and how many wait (for tests and the bench). */
  get stats(): { running: number; waiting: number } {
    let waiting = this.firstLane.length;
    for (const jobs of this.waiting.values()) waiting += jobs.length;
    return { running: this.running, waiting };
  }

  private enqueue(key: string, start: () => void): void {
    const jobs = this.waiting.get(key);
    if (jobs) jobs.push(start);
    else this.waiting.set(key, [start]);
  }

  /** A place is free: it goes to the waiting key with the fewest jobs running (the first in turn among equals), which then goes to the back of the turn. */
  private next(): void {
    const first = this.firstLane.shift();
    if (first) {
      first();
      return;
    }
    let chosen: [string, (() => void)[]] | undefined;
    let fewest = Infinity;
    for (const entry of this.waiting) {
      const running = this.runningByKey.get(entry[0]) ?? 0;
      if (running < fewest) [chosen, fewest] = [entry, running];
      if (running === 0) break;
    }
    if (!chosen) {
      this.running--;
      return;
    }
    const [key, jobs] = chosen;
    const start = jobs.shift()!;
    this.waiting.delete(key);
    if (jobs.length > 0) this.waiting.set(key, jobs);
    start(); // the place passes straight to it: `running` stays the same
  }
}
