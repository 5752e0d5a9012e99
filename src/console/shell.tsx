/** The layout: top bar (logo, username, Logout), sidebar built from the registry, main area. */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import type { AnyScreen, SessionUser } from '../definitions/definitions';
import { menuFor, type MenuItem } from '../definitions/access';
import { menuSections } from '../../screens/menu';
import { useQuery } from '@tanstack/react-query';
import { useOwnProvider } from './ownProvider';
import { logout } from '../api/auth';
import { callApi } from './request';
import { clearToken } from './session';
import { loadBusinessTimeZone, useBusinessTimeZone } from './businessTime';
import { useServerSettings } from './serverSettings';
import { timeZoneNote } from '../domain/businessTime';
import { FindBox, type FindBoxHandle } from './views/FindBox';
import { FOUND_ROW_PARAM } from './finder';
import { isPaletteShortcut } from './paletteShortcut';

/** The drawer of a row the top-bar search opened: loaded when a `find` parameter first names one. */
const FoundRowDrawer = lazy(() => import('./views/RowDrawer').then((m) => ({ default: m.FoundRowDrawer })));
/** The command palette: loaded on its first opening (Ctrl+K or the top bar's button). */
const CommandPalette = lazy(() => import('./views/CommandPalette'));

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

export const APP_NAME = 'RemitOps';

/** The screen whose route matches a path (`$param` segments match any one segment). */
export function screenAtPath(screens: readonly AnyScreen[], path: string): AnyScreen | undefined {
  const parts = path.replace(/\/+$/, '').split('/');
  return screens.find((screen) => {
    const pattern = screen.route.replace(/\/+$/, '').split('/');
    return pattern.length === parts.length && pattern.every((p, i) => p.startsWith('$') || p.toLowerCase() === parts[i].toLowerCase());
  });
}

/** The browser tab's title on a screen: "Send Money Transactions - RemitOps". */
export function documentTitle(screenTitle: string | undefined): string {
  return screenTitle ? `${screenTitle} - ${APP_NAME}` : `${APP_NAME} Console`;
}

/** The path the shell last showed (the shell is mounted anew with each route's page). */
let shownPath: string | undefined;
/** The running look for the new page's heading (one at a time; not tied to a shell, which may unmount). */
let headingFrame = 0;

/**
 * Puts focus on the page's main heading once it is there. The heading of a lazily loaded view may
 * come some moments later, and the view may draw it anew once its data is in (focus then falls to
 * <body>): for five seconds, unless the user has put focus somewhere else, focus is kept on it.
 */
function focusHeadingSoon() {
  cancelAnimationFrame(headingFrame);
  const until = performance.now() + 5000;
  const look = () => {
    const active = document.activeElement;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && (active === null || active === document.body || active === heading || !active.isConnected)) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      if (active !== heading) heading.focus();
    } else if (heading) return;
    if (performance.now() < until) headingFrame = requestAnimationFrame(look);
  };
  headingFrame = requestAnimationFrame(look);
}

/**
 * Focus is never lost to <body> when the element that held it goes: a row decided in a list or the
 * inbox disappears with the button that opened its dialog, a panel is drawn anew once its data is in.
 * Focus then moves to the page's main heading, so the next Tab starts in the page and a screen reader
 * says where the user is. A click on blank space (the element is still there) is left alone.
 */
function useFocusRescue() {
  useEffect(() => {
    let last: Element | null = null;
    const remember = (e: FocusEvent) => {
      last = e.target instanceof Element ? e.target : null;
    };
    const rescue = () => {
      if (document.activeElement !== document.body || !last || last.isConnected) return;
      last = null;
      const heading = document.querySelector<HTMLElement>('main h1');
      if (!heading) return;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    };
    // a moment later: a closing dialog gives focus back to its opener on its own first
    let timer = 0;
    const observer = new MutationObserver(() => {
      clearTimeout(timer);
      timer = window.setTimeout(rescue, 100);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener('focusin', remember);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
      document.removeEventListener('focusin', remember);
    };
  }, []);
}

/**
 * After an in-app navigation, focus goes to the new page's main heading (a screen reader reads where
 * the user is; the next Tab starts in the page, not back at the top of the menu). Not on the first
 * page of a visit.
 */
function useFocusHeadingOnNavigation(path: string) {
  useEffect(() => {
    const navigated = shownPath !== undefined && shownPath !== path;
    shownPath = path;
    if (navigated) focusHeadingSoon();
  }, [path]);
}

/**
 * The user menu, as the ARIA menu-button pattern has it: Enter, Space or Arrow Down opens it on its
 * first item, Arrow Up on its last; arrows, Home and End move between items; Escape closes it and
 * gives focus back to the button; a click outside or Tab away closes it.
 */
function UserMenu({ username, onSignOut }: { username: string; onSignOut: () => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  // the item to focus once the menu is drawn: in a layout effect, so it has focus before the next key
  const focusOnOpen = useRef<'first' | 'last' | undefined>(undefined);
  useLayoutEffect(() => {
    if (!open || !focusOnOpen.current) return;
    const all = items();
    (focusOnOpen.current === 'first' ? all[0] : all[all.length - 1])?.focus();
    focusOnOpen.current = undefined;
  }, [open]);
  const openAt = (which: 'first' | 'last') => {
    focusOnOpen.current = which;
    setOpen(true);
  };
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);
  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt('first');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt('last');
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') setOpen(false);
  };
  const itemClass = 'block w-full px-3 py-1.5 text-left text-sm hover:bg-muted focus:bg-muted focus:outline-none';
  return (
    <>
      <button
        ref={button}
        type="button"
        id="user-menu-button"
        className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? 'user-menu' : undefined}
        onClick={() => (open ? close(false) : openAt('first'))}
        onKeyDown={onButtonKey}
      >
        <span className="grid h-7 w-7 place-items-center rounded-full bg-accent/15 text-xs font-semibold uppercase text-accent">{(username || 'U').slice(0, 1)}</span>
        <span data-testid="username">{username || 'User'}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          ref={menu}
          id="user-menu"
          role="menu"
          aria-labelledby="user-menu-button"
          className="absolute right-0 top-full mt-1 w-44 rounded-md border border-line bg-surface py-1 shadow-lg"
          onKeyDown={onMenuKey}
        >
          <Link role="menuitem" tabIndex={-1} to="/resetPassword" className={itemClass} onClick={() => setOpen(false)}>
            Reset Password
          </Link>
          <button
            role="menuitem"
            tabIndex={-1}
            type="button"
            className={itemClass}
            onClick={() => {
              setOpen(false);
              onSignOut();
            }}
          >
            Logout
          </button>
        </div>
      )}
    </>
  );
}

type CountsCall = NonNullable<MenuItem['counts']>;

/** How often the menu's counts are reloaded when no change is announced. */
export const COUNTS_POLL_MS = 30_000;

/**
 * The counts of a menu entry, shared by its badge and its per-area lines: loaded once, then every
 * 30 s and on focus; while the approvals inbox is open, also whenever the server announces a change
 * (server-sent events fed by PostgreSQL NOTIFY on every server process: src/custom/Approvals.tsx), and
 * after each decision. (The stream is held only by the inbox, so other pages keep no request open.)
 */
export function useMenuCounts(call: CountsCall): { type: string; count: number }[] | undefined {
  const { data } = useQuery({
    queryKey: ['menuCounts', call.path],
    queryFn: async () => {
      const res = await callApi(call, {});
      return res.ok ? res.data.counts : [];
    },
    refetchInterval: COUNTS_POLL_MS,
    refetchOnWindowFocus: true,
  });
  return data;
}

function MenuCountBadge({ call }: { call: CountsCall }) {
  const counts = useMenuCounts(call);
  const total = counts?.reduce((n, c) => n + c.count, 0) ?? 0;
  if (!total) return null;
  return (
    <span
      data-testid="menu-count"
      className="ml-2 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-100"
    >
      <span className="sr-only">, pending: </span>
      {total}
    </span>
  );
}

function MenuAreaCounts({ call, to }: { call: CountsCall; to: string }) {
  const counts = useMenuCounts(call)?.filter((c) => c.count > 0);
  if (!counts?.length) return null;
  return (
    <ul aria-label="Pending by area" className="mb-1 ml-4 border-l border-line pl-2">
      {counts.map((c) => (
        <li key={c.type}>
          <Link to={to} search={{ type: c.type }} className="flex min-h-6 items-center justify-between rounded px-2 py-0.5 text-xs text-ink-soft hover:bg-muted" data-area-count={c.type}>
            <span>{c.type}</span>
            <span className="tabular-nums">{c.count}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function Shell({ user, screens, children }: { user: SessionUser; screens: readonly AnyScreen[]; children: ReactNode }) {
  const navigate = useNavigate();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const foundRow = useRouterState({ select: (s) => (s.location.search as Record<string, unknown>)[FOUND_ROW_PARAM] !== undefined });
  const ownProvider = useOwnProvider(user);
  const settings = useServerSettings();
  const groups = menuFor(screens, menuSections, user.permissions, { ownProvider, settings });
  const screenTitle = screenAtPath(screens, path)?.title;
  useEffect(() => {
    document.title = documentTitle(screenTitle);
  }, [screenTitle]);
  useFocusHeadingOnNavigation(path);
  useFocusRescue();
  const zone = useBusinessTimeZone();
  useEffect(() => {
    void loadBusinessTimeZone();
  }, []);
  // undefined until first opened: the palette's code loads then
  const [palette, setPalette] = useState<boolean>();
  const findBox = useRef<FindBoxHandle>(null);
  const withMenu = screens.length > 0;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (withMenu && isPaletteShortcut(e)) {
        e.preventDefault();
        setPalette(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [withMenu]);

  async function signOut() {
    await callApi(logout, {});
    clearToken();
    void navigate({ to: '/login', replace: true });
  }

  return (
    <div className="flex min-h-screen flex-col bg-canvas text-ink">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-accent-fill px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
        onClick={(event) => {
          event.preventDefault();
          const main = document.getElementById('main');
          main?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-line bg-surface px-4">
        <Logo />
        {withMenu && <FindBox user={user} ref={findBox} />}
        <div className="relative flex items-center gap-2">
          {withMenu && (
            <button
              type="button"
              aria-keyshortcuts="Control+K Meta+K"
              className="min-h-6 rounded-md border border-line px-2 text-xs text-ink-soft hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent"
              onClick={() => setPalette(true)}
            >
              {/* named "Command palette Ctrl K": the visible keys are part of the name (WCAG 2.5.3) */}
              <span className="sr-only">Command palette </span>
              {/Mac|iP/.test(navigator.platform) ? '⌘' : 'Ctrl'} K
            </button>
          )}
          {/* the zone every time on the page is shown in, named once (docs/business-time.md) */}
          {zone && (
            <span data-testid="business-time-zone" className="text-xs text-ink-soft">
              {timeZoneNote(zone)}
            </span>
          )}
          <ThemeToggle />
          <UserMenu username={user.username} onSignOut={() => void signOut()} />
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
                          {item.counts && <MenuCountBadge call={item.counts} />}
                        </Link>
                        {item.counts && <MenuAreaCounts call={item.counts} to={item.to} />}
                      </li>
                    );
                  })}
                </ul>
              </div>
            ))}
          </div>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-6 focus:outline-none">
          {zone ? children : null}
        </main>
      </div>
      {palette !== undefined && (
        <Suspense fallback={null}>
          <CommandPalette
            user={user}
            screens={screens}
            ownProvider={ownProvider}
            settings={settings}
            open={palette}
            onOpenChange={setPalette}
            onGo={(to, search) => void navigate({ to, search: search as never })}
            onFind={(v) => findBox.current?.find(v)}
          />
        </Suspense>
      )}
      {foundRow && withMenu && (
        <Suspense fallback={null}>
          <FoundRowDrawer screens={screens} user={user} />
        </Suspense>
      )}
      <footer className="border-t border-line bg-surface px-6 py-2 text-xs text-ink-soft">Version 1.0 © 2024</footer>
    </div>
  );
}
