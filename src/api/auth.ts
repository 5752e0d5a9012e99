import { z } from 'zod';
import { defineCall, emptyBody } from './contract';

export const login = defineCall({
  path: 'auth/login',
  access: 'public',
  summary: 'Sign in with a username and password; returns a session token.',
  request: z.strictObject({ username: z.string().min(1, 'username is required').max(100), password: z.string().min(1, 'password is required').max(200) }),
  data: z.object({ token: z.string() }),
});

export const refreshToken = defineCall({
  path: 'auth/token',
  access: 'authenticated',
  summary: 'Exchange a valid session token for a fresh one (the background refresh).',
  request: emptyBody,
  data: z.object({ token: z.string() }),
});

export const logout = defineCall({
  path: 'auth/logout',
  access: 'authenticated',
  summary: "Sign out: revokes the user's tokens.",
  request: emptyBody,
  data: z.object({ message: z.string() }),
});

export const authCalls = [login, refreshToken, logout] as const;
