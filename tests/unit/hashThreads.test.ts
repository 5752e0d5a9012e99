import { describe, expect, it } from 'vitest';
import { scryptSync } from 'node:crypto';
import { getPriority, platform } from 'node:os';
import { hashThreadPriority, scryptOnThread } from '../../src/server/auth/hashThreads';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords';

describe('password hashing threads', () => {
  it('give the same key as scrypt itself, and hashes verify', async () => {
    const salt = Buffer.from('0123456789abcdef');
    expect(await scryptOnThread('Demo@Pass1', salt, 64, 1024, 8, 1)).toEqual(scryptSync('Demo@Pass1', salt, 64, { N: 1024, r: 8, p: 1 }));
    const hash = await hashPassword('Demo@Pass1', 1024);
    expect(await verifyPassword('Demo@Pass1', hash)).toBe(true);
    expect(await verifyPassword('Demo@Pass2', hash)).toBe(false);
  });

  it('run many at once without losing one', async () => {
    const salt = Buffer.from('salt-salt-salt-!');
    const keys = await Promise.all(Array.from({ length: 12 }, (_, i) => scryptOnThread(`pw${i}`, salt, 32, 1024, 8, 1)));
    keys.forEach((key, i) => expect(key).toEqual(scryptSync(`pw${i}`, salt, 32, { N: 1024, r: 8, p: 1 })));
  });

  it.runIf(platform() === 'linux')('run at the lowest CPU priority (nice 19), so a flood of sign-ins leaves the cores to everything else', async () => {
    expect(await hashThreadPriority()).toBe(19);
  });

  it.runIf(platform() === 'linux')("a normal-priority thread, asked for, runs at the process's own priority and gives the same key", async () => {
    expect(await hashThreadPriority('normal')).toBe(getPriority());
    expect(await hashThreadPriority('low')).toBe(19);
    const salt = Buffer.from('0123456789abcdef');
    expect(await scryptOnThread('Demo@Pass1', salt, 64, 1024, 8, 1, 'normal')).toEqual(scryptSync('Demo@Pass1', salt, 64, { N: 1024, r: 8, p: 1 }));
  });
});
