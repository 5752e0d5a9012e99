/** The start-up settings read from the environment that have no server of their own to test them through. */
import { describe, expect, it } from 'vitest';
import { readLogLevel, readScryptN, StartupRefusal } from '../../src/server/environment';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords';

describe('LOG_LEVEL', () => {
  it('is info when unset or empty, any of the logger levels as given, and stops the start otherwise', () => {
    expect(readLogLevel({})).toBe('info');
    expect(readLogLevel({ LOG_LEVEL: ' ' })).toBe('info');
    expect(readLogLevel({ LOG_LEVEL: ' warn ' })).toBe('warn');
    expect(readLogLevel({ LOG_LEVEL: 'silent' })).toBe('silent');
    for (const bad of ['WARN', 'verbose', '30']) expect(() => readLogLevel({ LOG_LEVEL: bad })).toThrow(StartupRefusal);
  });
});

describe('SCRYPT_N', () => {
  it('is the default cost when unset; with NODE_ENV=test a power of two from 1024 to 2^20', () => {
    expect(readScryptN({ NODE_ENV: 'test' })).toBeUndefined();
    expect(readScryptN({})).toBeUndefined();
    expect(readScryptN({ NODE_ENV: 'test', SCRYPT_N: '1024' })).toBe(1024);
    expect(readScryptN({ NODE_ENV: 'test', SCRYPT_N: String(2 ** 20) })).toBe(2 ** 20);
    for (const bad of ['512', '1000', '2048.0', String(2 ** 21), 'low']) expect(() => readScryptN({ NODE_ENV: 'test', SCRYPT_N: bad }), bad).toThrow(StartupRefusal);
  });

  it('outside NODE_ENV=test it stops the start, whatever the value', () => {
    for (const NODE_ENV of [undefined, 'development', 'production', 'TEST'])
      expect(() => readScryptN({ NODE_ENV, SCRYPT_N: String(2 ** 17) }), NODE_ENV).toThrow('SCRYPT_N lowers the cost of the stored password hashes and is for tests only: it needs NODE_ENV=test');
  });

  it('a hash made at that cost says so, and verifies at it', async () => {
    const hash = await hashPassword('Demo@Pass1', 1024);
    expect(hash.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
    expect(await verifyPassword('Demo@Pass1', hash)).toBe(true);
    expect(await verifyPassword('Demo@Pass2', hash)).toBe(false);
  });
});
