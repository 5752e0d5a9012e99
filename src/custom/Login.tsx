/** Sign in (route /login, outside the shell). */
import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { login } from '../api/auth';
import { callApi, failureMessage } from '../console/request';
import { decodeToken, failedSignInsNotice, saveToken } from '../console/session';
import { formatDateTime } from '../console/format';
import { toast } from '../console/ui/toast';
import { homeRouteFor } from '../domain/access';
import { Button, FieldRow, inputClass } from '../console/ui/primitives';
import { Logo } from '../console/shell';

export default function Login() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!username.trim() || !password) {
      setError('Please enter your username and password');
      return;
    }
    setBusy(true);
    setError(null);
    const res = await callApi(login, { username: username.trim(), password });
    setBusy(false);
    if (res.ok) {
      saveToken(res.data.token);
      const p = decodeToken(res.data.token);
      // shown once, after this sign-in only: the server hands the count over once
      const failed = res.data.failedSignIns;
      if (failed)
        toast(
          'warning',
          failedSignInsNotice(failed.count, failed.lastAt, (iso) => formatDateTime(iso).slice(0, 16)),
          20_000,
        );
      // a password set by someone else: straight to Reset Password, and nowhere else until it is changed
      void navigate({ to: res.data.mustChangePassword ? '/resetPassword' : homeRouteFor(p?.permissions ?? []), replace: true });
    } else {
      setError(res.statusCode === 502 ? 'The server could not be reached. Please try again.' : (failureMessage(res) ?? 'Login failed'));
    }
  }

  return (
    <div className="grid min-h-screen place-items-center bg-canvas px-4 text-ink">
      <form onSubmit={submit} className="flex w-full max-w-sm flex-col gap-4 rounded-lg border border-line bg-surface p-8 shadow-sm" aria-labelledby="login-title">
        <Logo className="text-lg" />
        <h1 id="login-title" className="text-lg font-semibold">
          Sign in
        </h1>
        <FieldRow label="Username" htmlFor="username">
          <input id="username" className={inputClass} autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} autoFocus />
        </FieldRow>
        <FieldRow label="Password" htmlFor="password">
          <input id="password" type="password" className={inputClass} autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </FieldRow>
        {error && (
          <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Login'}
        </Button>
      </form>
    </div>
  );
}
