import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkSession, decodeToken, getToken, REFRESH_FLAG_KEY, saveToken, tokenState, TOKEN_KEY } from '../../src/console/session';

function token(payload: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(payload)}.sig`;
}

class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

const t0 = 1_700_000_000; // seconds
const payload = { iat: t0, exp: t0 + 1800, rfh: 1_200_000, username: 'maker', permissions: ['user-view'] };

describe('token states (spec 000 §4)', () => {
  it('valid, then refresh margin once its age reaches rfh, then expired at exp', () => {
    const tk = token(payload);
    expect(tokenState(tk, t0 * 1000 + 1000)).toBe('valid');
    expect(tokenState(tk, t0 * 1000 + 1_200_000)).toBe('refresh');
    expect(tokenState(tk, (t0 + 1800) * 1000)).toBe('expired');
    expect(tokenState('garbage', t0 * 1000)).toBe('invalid');
    expect(tokenState(null, t0 * 1000)).toBe('none');
  });
  it('permissions that cannot be read mean none', () => {
    expect(decodeToken(token({ ...payload, permissions: '{not json' }))?.permissions).toEqual([]);
    expect(decodeToken(token({ ...payload, permissions: JSON.stringify(['a']) }))?.permissions).toEqual(['a']);
  });
});

describe('checkSession', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
  });

  it('expired: removes the token and reports', () => {
    saveToken(token(payload));
    const onExpired = vi.fn();
    const state = checkSession({ refresh: async () => null, onExpired, now: () => (t0 + 2000) * 1000 });
    expect(state).toBe('expired');
    expect(getToken()).toBeNull();
    expect(onExpired).toHaveBeenCalledOnce();
  });

  it('refresh margin: one background refresh 5 s later, guarded by the local-storage flag', async () => {
    saveToken(token(payload));
    const timers: { fn: () => void; ms: number }[] = [];
    const refresh = vi.fn(async () => token({ ...payload, iat: t0 + 1300, exp: t0 + 3100 }));
    const opts = { refresh, onExpired: vi.fn(), now: () => t0 * 1000 + 1_300_000, setTimer: (fn: () => void, ms: number) => timers.push({ fn, ms }) };
    expect(checkSession(opts)).toBe('refresh');
    expect(checkSession(opts)).toBe('refresh'); // second check while the flag is set: no second refresh
    expect(timers).toHaveLength(1);
    expect(timers[0].ms).toBe(5000);
    expect(localStorage.getItem(REFRESH_FLAG_KEY)).toBe('1');
    timers[0].fn();
    await vi.waitFor(() => expect(localStorage.getItem(REFRESH_FLAG_KEY)).toBeNull());
    expect(refresh).toHaveBeenCalledOnce();
    expect(decodeToken(localStorage.getItem(TOKEN_KEY)!)?.iat).toBe(t0 + 1300);
  });
});
