/** The layout: top bar (logo, username, Logout), sidebar built from the registry, main area. */
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import type { AnyScreen, SessionUser } from './definitions';
import { menuFor } from './access';
import { logout } from '../api/auth';
import { callApi } from './request';
import { clearToken } from './session';

export function Logo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight ${className}`}>
      <svg viewBox="0 0 32 32" className="h-7 w-7" aria-hidden="true">
        <rect width="32" height="32" rx="7" className="fill-accent" />
        <path d="M8 20l6-8 4 5 6-8" stroke="white" strokeWidth="2.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>RemitOps Console</span>
    </span>
  );
}

export type Theme = 'light' | 'dark';
const THEME_KEY = 'theme';

/** The theme: the stored choice, else the system's preference. */
export function currentTheme(): Theme {
  const stored = localStorage.getItem(THEME_KEY);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme) {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.classList.toggle('light', theme === 'light');
}

function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(currentTheme);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="rounded-md px-2 py-1 text-sm text-ink-soft hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => {
        localStorage.setItem(THEME_KEY, next);
        applyTheme(next);
        setTheme(next);
      }}
    >
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}

export function Shell({ user, screens, children }: { user: SessionUser; screens: readonly AnyScreen[]; children: ReactNode }) {
  const navigate = useNavigate();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const [menuOpen, setMenuOpen] = useState(false);
  const groups = menuFor(screens, user.permissions);

  async function signOut() {
    await callApi(logout, {});
    clearToken();
    void navigate({ to: '/login', replace: true });
  }

  return (
    <div className="flex min-h-screen flex-col bg-canvas text-ink">
      <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-line bg-surface px-4">
        <Logo />
        <div className="relative flex items-center gap-2">
          <ThemeToggle />
          <button type="button" className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent" aria-haspopup="menu" aria-expanded={menuOpen} onClick={() => setMenuOpen(!menuOpen)}>
            <span className="grid h-7 w-7 place-items-center rounded-full bg-accent/15 text-xs font-semibold uppercase text-accent">{(user.username || 'U').slice(0, 1)}</span>
            <span data-testid="username">{user.username || 'User'}</span>
            <span aria-hidden="true">▾</span>
          </button>
          {menuOpen && (
            <div role="menu" className="absolute right-0 top-full mt-1 w-44 rounded-md border border-line bg-surface py-1 shadow-lg">
              <Link role="menuitem" to="/resetPassword" className="block px-3 py-1.5 text-sm hover:bg-muted" onClick={() => setMenuOpen(false)}>
                Reset Password
              </Link>
              <button role="menuitem" type="button" className="block w-full px-3 py-1.5 text-left text-sm hover:bg-muted" onClick={() => void signOut()}>
                Logout
              </button>
            </div>
          )}
        </div>
      </header>
      <div className="flex flex-1">
        <nav aria-label="Main menu" className="w-60 shrink-0 border-r border-line bg-surface px-2">
          {/* stays in view under the header while a long page scrolls */}
          <div className="sticky top-14 max-h-[calc(100vh-3.5rem)] overflow-y-auto py-4">
            {groups.map((g) => (
              <div key={g.section} className="mb-4">
                {g.section !== 'Main' && <p className="px-3 pb-1 text-xs font-semibold uppercase tracking-wider text-ink-soft">{g.section}</p>}
                <ul>
                  {g.items.map((item) => {
                    const active = path === item.to || path.startsWith(`${item.to}/`);
                    return (
                      <li key={item.to}>
                        <Link
                          to={item.to}
                          aria-current={active ? 'page' : undefined}
                          className={`block rounded-md px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-accent ${active ? 'bg-accent/10 font-semibold text-accent' : 'text-ink hover:bg-muted'}`}
                        >
                          {item.label}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </div>
            ))}
          </div>
        </nav>
        <main className="min-w-0 flex-1 p-6">{children}</main>
      </div>
      <footer className="border-t border-line bg-surface px-6 py-2 text-xs text-ink-soft">Version 1.0 © 2024</footer>
    </div>
  );
}
