/**
 * The session (spec 000 §4): the token in local storage, its states, the background refresh and the
 * periodic re-check. Framework-free so it can be unit-tested; React reads it through useSession().
 */
import { useSyncExternalStore } from 'react';
import type { SessionUser } from '../definitions/definitions';

export const TOKEN_KEY = 'token';
export const REFRESH_FLAG_KEY = 'tokenRefreshing';
export const CHECK_INTERVAL_MS = 5000;
export const REFRESH_DELAY_MS = 5000;
export const SESSION_EXPIRED_MESSAGE = 'Session expired!. Please login again';

export interface TokenPayload {
  iat: number;
  exp: number;
  rfh: number;
  username: string;
  permissions: string[];
  /** The password was set by someone else: the console shows nothing but Reset Password (the server refuses the rest). */
  mustChangePassword: boolean;
}

export type TokenState = 'none' | 'valid' | 'refresh' | 'expired' | 'invalid';

function base64UrlDecode(part: string): string {
  const b64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads a token's payload without verifying it (the server verifies); null when unreadable. */
export function decodeToken(token: string): TokenPayload | null {
  try {
    const [, payload] = token.split('.');
    if (!payload) return null;
    const p = JSON.parse(base64UrlDecode(payload)) as Partial<TokenPayload> & { permissions?: unknown };
    if (typeof p.exp !== 'number' || typeof p.iat !== 'number' || typeof p.username !== 'string') return null;
    let permissions: string[] = [];
    try {
      const raw = typeof p.permissions === 'string' ? JSON.parse(p.permissions) : p.permissions;
      permissions = Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      permissions = []; // failure to read permissions means none
    }
    const mustChangePassword = (p as { mcp?: unknown }).mcp === true;
    return { iat: p.iat, exp: p.exp, rfh: typeof p.rfh === 'number' ? p.rfh : (p.exp - p.iat) * 1000, username: p.username, permissions, mustChangePassword };
  } catch {
    return null;
  }
}

/** The state of a token at `now` (ms). */
export function tokenState(token: string | null, now: number): TokenState {
  if (!token) return 'none';
  const p = decodeToken(token);
  if (!p) return 'invalid';
  if (now >= p.exp * 1000) return 'expired';
  if (now - p.iat * 1000 >= p.rfh) return 'refresh';
  return 'valid';
}

type Listener = () => void;
const listeners = new Set<Listener>();
let cachedToken: string | null | undefined;
let cachedUser: SessionUser | null = null;

function storage(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

export function getToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) ?? null;
}

function emit() {
  for (const l of listeners) l();
}

export function saveToken(token: string) {
  storage()?.setItem(TOKEN_KEY, token);
  emit();
}

export function clearToken() {
  storage()?.removeItem(TOKEN_KEY);
  storage()?.removeItem(REFRESH_FLAG_KEY);
  emit();
}

/** The signed-in user from the stored token; null when signed out or the token is unusable. */
export function currentUser(): SessionUser | null {
  const token = getToken();
  if (token === cachedToken) return cachedUser;
  cachedToken = token;
  const p = token ? decodeToken(token) : null;
  cachedUser = p ? { username: p.username || 'User', permissions: p.permissions } : null;
  return cachedUser;
}

function subscribe(l: Listener) {
  listeners.add(l);
  const onStorage = (e: StorageEvent) => {
    if (e.key === TOKEN_KEY) l();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

/** The stored token says the password must be changed before anything else. */
export function mustChangePassword(): boolean {
  const token = getToken();
  return token ? decodeToken(token)?.mustChangePassword === true : false;
}

/** Subscribes to the stored token and tells whether its password must be changed first. */
export function useMustChangePassword(): boolean {
  return useSyncExternalStore(subscribe, mustChangePassword, () => false);
}

/** The notice shown once after a sign-in when there were failed attempts since the previous one. */
export function failedSignInsNotice(count: number, lastAt: string, formatTime: (iso: string) => string): string {
  return `${count} failed sign-in attempt${count === 1 ? '' : 's'} on your account since your last sign-in, the last at ${formatTime(lastAt)}.`;
}

export function useSession(): SessionUser | null {
  return useSyncExternalStore(subscribe, currentUser, () => null);
}

export interface SessionWatchOptions {
  /** Exchange the current token for a fresh one; resolves to the new token or null. */
  refresh: () => Promise<string | null>;
  /** Called when the token expired or became invalid. */
  onExpired: () => void;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

/**
 * One check of the session: expired or invalid → token removed and onExpired; in the refresh margin →
 * a background refresh 5 s later, guarded by a flag in local storage so only one runs.
 */
export function checkSession(opts: SessionWatchOptions): TokenState {
  const now = opts.now?.() ?? Date.now();
  const token = getToken();
  const state = tokenState(token, now);
  if (state === 'expired' || state === 'invalid') {
    console.warn(state === 'expired' ? 'Token expired!' : 'Token invalid!');
    clearToken();
    opts.onExpired();
  } else if (state === 'refresh' && storage()?.getItem(REFRESH_FLAG_KEY) !== '1') {
    storage()?.setItem(REFRESH_FLAG_KEY, '1');
    const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    setTimer(() => {
      opts
        .refresh()
        .then((fresh) => {
          if (fresh) saveToken(fresh);
          else console.warn('Token save failed!');
        })
        .catch(() => console.warn('Token save failed!'))
        .finally(() => storage()?.removeItem(REFRESH_FLAG_KEY));
    }, REFRESH_DELAY_MS);
  }
  return state;
}
