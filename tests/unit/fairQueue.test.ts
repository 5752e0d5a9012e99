/**
 * The fair queue of password hashes (src/server/auth/fairQueue.ts), functionally: jobs are resolved
 * by hand, so the order in which they start and the bound are observed, not timed.
 */
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/server/auth/fairQueue';

/** A job that starts when the queue lets it and ends when the test says so. */
function controllable(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    job: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FairQueue', () => {
  it('never runs more than its bound at once; the rest wait and start as places free up', async () => {
    const queue = new FairQueue(2);
    const started: string[] = [];
    const jobs = ['a', 'b', 'c', 'd', 'e'].map((n) => controllable(started, n));
    const results = jobs.map((j) => queue.run('one-address', j.job));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(queue.stats).toEqual({ running: 2, waiting: 3 });
    jobs[0].finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(queue.stats).toEqual({ running: 2, waiting: 2 });
    for (const j of jobs.slice(1)) j.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps each address in arrival order, and gives a free place to an address with nothing running before one flooding it', async () => {
    const queue = new FairQueue(2);
    const started: string[] = [];
    const flood = Array.from({ length: 70 }, (_, i) => controllable(started, `flood${i}`));
    const floodRuns = flood.map((j) => queue.run('203.0.113.1', j.job));
    await settle();
    const owner = controllable(started, 'owner');
    const ownerRun = queue.run('198.51.100.7', owner.job);
    await settle();
    expect(started).toEqual(['flood0', 'flood1']);
    flood[0].finish();
    await settle();
    // the first free place goes to the owner, not to flood2 (a single FIFO would run 68 more first)
    expect(started).toEqual(['flood0', 'flood1', 'owner']);
    owner.finish();
    expect(await ownerRun).toBe('owner');
    for (const j of flood) j.finish();
    await Promise.all(floodRuns);
    expect(started.filter((n) => n.startsWith('flood'))).toEqual(flood.map((_, i) => `flood${i}`));
  });

  it('shares the places between many waiting addresses in turn', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const first = controllable(started, 'x0');
    const runs = [queue.run('x', first.job)];
    const rest: ReturnType<typeof controllable>[] = [];
    for (const [key, n] of [
      ['x', 'x1'],
      ['x', 'x2'],
      ['y', 'y0'],
      ['y', 'y1'],
      ['z', 'z0'],
    ] as const) {
      const j = controllable(started, n);
      rest.push(j);
      runs.push(queue.run(key, j.job));
    }
    await settle();
    first.finish();
    for (const j of rest) {
      await settle();
      j.finish();
    }
    await Promise.all(runs);
    expect(started).toEqual(['x0', 'x1', 'y0', 'z0', 'x2', 'y1']);
  });

  it('serves jobs marked first (a known address) before every other waiting job, in their arrival order', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const running = controllable(started, 'busy');
    const runs = [queue.run('a', running.job)];
    const others = Array.from({ length: 20 }, (_, i) => controllable(started, `spread${i}`));
    others.forEach((j, i) => runs.push(queue.run(`10.2.0.${i}`, j.job)));
    const owner = controllable(started, 'owner');
    const second = controllable(started, 'second');
    runs.push(queue.run('198.51.100.1', owner.job, { first: true }), queue.run('198.51.100.2', second.job, { first: true }));
    await settle();
    running.finish();
    await settle();
    expect(started).toEqual(['busy', 'owner']);
    owner.finish();
    await settle();
    expect(started).toEqual(['busy', 'owner', 'second']);
    second.finish();
    for (const j of others) {
      await settle();
      j.finish();
    }
    await Promise.all(runs);
    expect(started.slice(3)).toEqual(others.map((_, i) => `spread${i}`));
  });

  it('with a bound per address, a flood holds only that many places and another address starts at once', async () => {
    const queue = new FairQueue(2, 1);
    const started: string[] = [];
    const flood = Array.from({ length: 70 }, (_, i) => controllable(started, `flood${i}`));
    const floodRuns = flood.map((j) => queue.run('203.0.113.1', j.job));
    await settle();
    expect(started).toEqual(['flood0']);
    expect(queue.stats).toEqual({ running: 1, waiting: 69 });
    // nothing of the flood has finished, and the owner starts on the free place all the same
    const owner = controllable(started, 'owner');
    const ownerRun = queue.run('198.51.100.7', owner.job);
    await settle();
    expect(started).toEqual(['flood0', 'owner']);
    // a second flooding address takes the place the owner frees, not a third job of the first flood
    const other = controllable(started, 'other');
    const otherRun = queue.run('203.0.113.2', other.job);
    owner.finish();
    expect(await ownerRun).toBe('owner');
    await settle();
    expect(started).toEqual(['flood0', 'owner', 'other']);
    other.finish();
    await otherRun;
    for (const j of flood) j.finish();
    await Promise.all(floodRuns);
    expect(started.filter((n) => n.startsWith('flood'))).toEqual(flood.map((_, i) => `flood${i}`));
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps the bound per address for jobs marked first too', async () => {
    const queue = new FairQueue(2, 1);
    const started: string[] = [];
    const a = controllable(started, 'a');
    const b = controllable(started, 'b');
    const runs = [queue.run('198.51.100.7', a.job), queue.run('198.51.100.7', b.job, { first: true })];
    await settle();
    expect(started).toEqual(['a']);
    a.finish();
    await settle();
    expect(started).toEqual(['a', 'b']);
    b.finish();
    await Promise.all(runs);
  });

  it('refuses a bound per address below one', () => {
    expect(() => new FairQueue(2, 0)).toThrow(/perKey/);
  });

  it('frees its place when a job fails', async () => {
    const queue = new FairQueue(1);
    await expect(queue.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run('a', async () => 'next')).toBe('next');
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a bound below one', () => {
    expect(() => new FairQueue(0)).toThrow(/concurrency/);
  });
});
