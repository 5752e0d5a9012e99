import { z } from 'zod';
import { defineCall, emptyBody } from './contract';

/** user/reset-password's 422 (and the Reset Password form's message) when the new password is the old one. */
export const NEW_PASSWORD_UNCHANGED = 'The new password must be different from the old password';

export const login = defineCall({
  path: 'auth/login',
  answers: [401, 429],
  access: 'public',
  summary: 'Sign in with a username and password; returns a session token.',
  request: z.strictObject({ username: z.string().min(1, 'username is required').max(100), password: z.string().min(1, 'password is required').max(200) }),
  data: z.object({
    token: z.string(),
    /** The failed sign-ins on the account since its previous successful sign-in (absent when there were none). */
    failedSignIns: z.object({ count: z.number().int().positive(), lastAt: z.string() }).optional(),
    /** Present (true) when the password was set by someone else: nothing but Reset Password is allowed until it is changed. */
    mustChangePassword: z.literal(true).optional(),
  }),
});

export const refreshToken = defineCall({
  path: 'auth/token',
  access: 'authenticated',
  summary: "Exchange the session's current token for a fresh one (the background refresh); the old one stops working. Refused (401) once the session has reached its maximum age.",
  request: emptyBody,
  data: z.object({ token: z.string() }),
});

export const logout = defineCall({
  path: 'auth/logout',
  access: 'authenticated',
  summary: 'Sign out: ends the session, whose tokens stop working.',
  request: emptyBody,
  data: z.object({ message: z.string() }),
});

export const authCalls = [login, refreshToken, logout] as const;
