/**
 * One account's parallel sign-ins get one password hash at a time (src/server/app.ts authServices):
 * sixteen valid sign-ins of one account, from sixteen addresses or from one, hold one hash place and
 * never the normal priority while others of theirs wait, so another account's sign-in starts at once,
 * at the normal priority. The account's own sign-in from a known address goes ahead of the rest of its
 * account's queue. Asserted on the order and the places the checks get (a held stand-in for scrypt),
 * not on time.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authServices } from '../../src/server/app';
import type { HashPriority } from '../../src/server/auth/hashThreads';
import type { Db } from '../../src/server/db/db';
import type { AuthServices } from '../../src/server/http/handle';

interface Check {
  readonly password: string;
  readonly priority: HashPriority;
  readonly release: () => void;
}

/** An app's password services whose checks wait until the test releases them, in the order they started. */
function heldServices(hashConcurrency = 2): { services: AuthServices; started: Check[]; running: () => number; mostBurstAtOnce: () => number } {
  const started: Check[] = [];
  let running = 0;
  let burstRunning = 0;
  let mostBurstAtOnce = 0;
  const services = authServices(
    {
      db: {} as Db,
      secret: randomBytes(32),
      scryptN: 1024,
      hashConcurrency,
      verifyPassword: async (password, _hash, priority) => {
        const burst = password.startsWith('burst-');
        running++;
        if (burst) mostBurstAtOnce = Math.max(mostBurstAtOnce, ++burstRunning);
        await new Promise<void>((release) => started.push({ password, priority: priority ?? 'low', release }));
        running--;
        if (burst) burstRunning--;
        return true;
      },
    },
    () => new Date(),
  );
  return { services, started, running: () => running, mostBurstAtOnce: () => mostBurstAtOnce };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};
/** Waits until `done` holds (the dummy hash of an unknown username is computed first, on a thread). */
const until = async (done: () => boolean) => {
  for (let i = 0; !done() && i < 1000; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  await settle();
};
/** A sign-in's password check as the handler makes it: in its address's turn, counted for its account. */
const attempt = (services: AuthServices, address: string, account: string, password: string, first = false) => {
  const client = services.forClient!(address);
  return client.inAddressTurn!(() => client.verifyPassword(password, 'hash', { first, account }), account);
};

describe('one hash of one account at a time', () => {
  for (const from of ['sixteen addresses', 'one address'] as const) {
    it(`sixteen parallel sign-ins of one account from ${from}: one hash place, at nice 19; another account's check starts at once, at the normal priority`, async () => {
      const { services, started, running, mostBurstAtOnce } = heldServices(2);
      const address = (i: number) => (from === 'one address' ? '198.51.100.7' : `198.51.100.${10 + i}`);
      const burst = Array.from({ length: 16 }, (_, i) => attempt(services, address(i), 'Auditor', `burst-${i}`));
      await settle();
      expect(started.map((c) => c.password)).toEqual(['burst-0']);
      const other = attempt(services, '203.0.113.9', 'checker', 'other');
      await settle();
      // the other account's check took the second place while the account's first hash is held
      expect(started.map((c) => c.password)).toEqual(['burst-0', 'other']);
      expect(running()).toBe(2);
      expect(started[1]!.priority).toBe('normal');
      // the account's checks, one after another, at nice 19 while others of its own wait
      for (let i = 0; i < 16; i++) {
        started.find((c) => c.password === `burst-${i}`)!.release();
        await settle();
      }
      expect(mostBurstAtOnce()).toBe(1);
      expect(await Promise.all(burst)).toEqual(Array.from({ length: 16 }, () => true));
      expect(
        started
          .filter((c) => c.password.startsWith('burst-'))
          .slice(0, 15)
          .map((c) => c.priority),
      ).toEqual(Array.from({ length: 15 }, () => 'low'));
      started[1]!.release();
      expect(await other).toBe(true);
    });
  }

  it("a burst's first check, started at the normal priority before the rest arrived, does not keep another account's check from it", async () => {
    const { services, started } = heldServices(2);
    const firstOfBurst = attempt(services, '198.51.100.60', 'maker', 'burst-0');
    await settle();
    expect(started.map((c) => [c.password, c.priority])).toEqual([['burst-0', 'normal']]);
    const rest = Array.from({ length: 15 }, (_, i) => attempt(services, `198.51.100.${61 + i}`, 'maker', `burst-${i + 1}`));
    const other = attempt(services, '203.0.113.9', 'checker', 'other');
    await settle();
    expect(started.map((c) => [c.password, c.priority])).toEqual([
      ['burst-0', 'normal'],
      ['other', 'normal'],
    ]);
    // a third account's check, once a place is free: nice 19, as the other account's (alone) holds the turn
    const third = attempt(services, '203.0.113.10', 'auditor', 'third');
    started[0]!.release();
    await settle();
    expect(started.map((c) => [c.password, c.priority])).toEqual([
      ['burst-0', 'normal'],
      ['other', 'normal'],
      ['third', 'low'],
    ]);
    for (let i = 1; i < 18; i++) {
      started[i]!.release();
      await settle();
    }
    await Promise.all([firstOfBurst, ...rest, other, third]);
    expect(started).toHaveLength(18);
  });

  it("the account's sign-in from a known address goes ahead of the rest of its account's queue; usernames are one account whatever their case", async () => {
    const { services, started } = heldServices(2);
    const burst = Array.from({ length: 8 }, (_, i) => attempt(services, `198.51.100.${20 + i}`, i % 2 ? 'ADMIN' : 'admin', `burst-${i}`));
    await settle();
    const owner = attempt(services, '192.0.2.1', 'Admin', 'owner', true);
    await settle();
    expect(started.map((c) => c.password)).toEqual(['burst-0']);
    started[0]!.release();
    await settle();
    expect(started.map((c) => c.password)).toEqual(['burst-0', 'owner']);
    expect(started[1]!.priority).toBe('normal');
    for (let i = 1; i < 9; i++) {
      started[i]!.release();
      await settle();
    }
    expect(await owner).toBe(true);
    expect(await Promise.all(burst)).toHaveLength(8);
  });

  it("an unknown username's dummy check waits in its name's turn too (it answers like a known one)", async () => {
    const { services, started } = heldServices(2);
    const nothing = Array.from({ length: 4 }, (_, i) => services.forClient!(`198.51.100.${40 + i}`).verifyNothing(`nobody-${i}`, { account: 'nobody' }));
    await until(() => started.length > 0);
    expect(started.map((c) => c.password)).toEqual(['nobody-0']);
    for (let i = 0; i < 4; i++) {
      started[i]!.release();
      await until(() => started.length > i + 1 || i === 3);
      expect(started).toHaveLength(i + 2 > 4 ? 4 : i + 2);
    }
    await Promise.all(nothing);
    expect(started).toHaveLength(4);
  });
});
