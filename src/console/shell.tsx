/** The layout: top bar (logo, username, Logout), sidebar built from the registry, main area. */
import { useEffect, useState, type ReactNode } from 'react';
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
/** What the user chose: a theme, or whatever the system prefers (the default). */
export type ThemeChoice = Theme | 'system';
const THEME_KEY = 'theme';
const systemDark = () => window.matchMedia?.('(prefers-color-scheme: dark)');

/** The remembered choice; 'system' when there is none. */
export function currentThemeChoice(): ThemeChoice {
  const stored = localStorage.getItem(THEME_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The theme shown for a choice: 'system' follows the system's preference. */
export function resolveTheme(choice: ThemeChoice): Theme {
  if (choice !== 'system') return choice;
  return systemDark()?.matches ? 'dark' : 'light';
}

/** The theme shown now. */
export function currentTheme(): Theme {
  return resolveTheme(currentThemeChoice());
}

/** Shows a theme: the `dark` class on <html> is the one switch the tokens and the `dark:` utilities follow. */
export function applyTheme(theme: Theme) {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}

/**
 * Follows the system's preference while the choice is 'system' (the OS switching to dark at dusk
 * switches the console too); returns the unsubscribe.
 */
export function followSystemTheme(): () => void {
  const query = systemDark();
  if (!query) return () => {};
  const onChange = () => {
    if (currentThemeChoice() === 'system') applyTheme(resolveTheme('system'));
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const THEME_LABEL: Record<ThemeChoice, string> = { light: 'light', dark: 'dark', system: 'system' };
const THEME_ICON: Record<ThemeChoice, string> = { light: '☀', dark: '☾', system: '◐' };

/**
 * The choice after this one: from following the system to the other theme, then to the system's own
 * theme chosen explicitly, then back to following the system (so each of the first clicks changes
 * what is shown).
 */
export function nextThemeChoice(choice: ThemeChoice, system: Theme): ThemeChoice {
  const order: readonly ThemeChoice[] = ['system', system === 'dark' ? 'light' : 'dark', system];
  return order[(order.indexOf(choice) + 1) % order.length];
}

/** Cycles the choice (nextThemeChoice), remembered in local storage. */
function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>(currentThemeChoice);
  useEffect(followSystemTheme, []);
  const next = nextThemeChoice(choice, resolveTheme('system'));
  const label = `Theme: ${THEME_LABEL[choice]}. Switch to ${THEME_LABEL[next]} theme`;
  return (
    <button
      type="button"
      className="rounded-md px-2 py-1 text-sm text-ink-soft hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent"
      aria-label={label}
      title={label}
      onClick={() => {
        if (next === 'system') localStorage.removeItem(THEME_KEY);
        else localStorage.setItem(THEME_KEY, next);
        applyTheme(resolveTheme(next));
        setChoice(next);
      }}
    >
      <span aria-hidden="true">{THEME_ICON[choice]}</span>
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
