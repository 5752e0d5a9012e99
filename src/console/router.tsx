/** The router, built from the screen registry: one route per screen, every screen behind its access rule. */
import { lazy, Suspense, useEffect } from 'react';
import { createRootRoute, createRoute, createRouter, Navigate, Outlet, redirect, useRouter } from '@tanstack/react-router';
import type { AnyScreen } from '../definitions/definitions';
import { canOpen } from '../definitions/access';
import { useServerSettings } from './serverSettings';
import { checkSession, CHECK_INTERVAL_MS, currentUser, getToken, mustChangePassword, SESSION_EXPIRED_MESSAGE, tokenState, useMustChangePassword, useSession } from './session';
import { callApi, setUnauthorizedHandler } from './request';
import { refreshToken } from '../api/auth';
import { homeRouteFor } from '../domain/access';
import { Shell } from './shell';
import { Toasts, toast } from './ui/toast';
import { Loader } from './ui/primitives';
import { RegistriesProvider, type Registries } from './registries';

// The views are lazy chunks of their own (with TanStack Table, react-hook-form and their cells), so the
// first load carries only the shell, the router and the screen definitions.
const ListView = lazy(() => import('./views/ListView').then((m) => ({ default: m.ListView })));
const FormView = lazy(() => import('./views/FormView').then((m) => ({ default: m.FormView })));

function SessionWatcher() {
  const router = useRouter();
  useEffect(() => {
    const expire = () => {
      toast('warning', SESSION_EXPIRED_MESSAGE);
      void router.navigate({ to: '/login', replace: true });
    };
    setUnauthorizedHandler(() => {
      if (router.state.location.pathname !== '/login') expire();
    });
    const tick = () => {
      if (!getToken()) return;
      checkSession({
        refresh: async () => {
          const res = await callApi(refreshToken, {});
          return res.ok ? res.data.token : null;
        },
        onExpired: expire,
      });
    };
    tick();
    const id = setInterval(tick, CHECK_INTERVAL_MS);
    return () => clearInterval(id);
  }, [router]);
  return null;
}

function Forbidden() {
  return (
    <div role="alert" className="rounded-md border border-line bg-surface p-6 text-sm">
      <h1 className="mb-1 text-lg font-semibold">Not allowed</h1>
      <p className="text-ink-soft">You do not have permission to view this page.</p>
    </div>
  );
}

const RESET_PASSWORD_ROUTE = '/resetPassword';

function ScreenHost({ screen, screens, customComponents }: { screen: AnyScreen; screens: readonly AnyScreen[]; customComponents: Registries['customComponents'] }) {
  const user = useSession();
  const forcedChange = useMustChangePassword();
  const settings = useServerSettings();
  if (screen.kind === 'custom' && screen.bare) {
    const C = customComponents[screen.component];
    return (
      <Suspense fallback={<Loader delayMs={500} />}>
        <C />
      </Suspense>
    );
  }
  if (!user) return <Navigate to="/login" replace />;
  // a password set by someone else: Reset Password and nothing else (no menu) until it is changed
  if (forcedChange && screen.route !== RESET_PASSWORD_ROUTE) return <Navigate to={RESET_PASSWORD_ROUTE} replace />;
  let body;
  if (!canOpen(screen, user.permissions, settings)) body = <Forbidden />;
  else if (screen.kind === 'list') body = <ListView key={screen.id} screen={screen} user={user} />;
  else if (screen.kind === 'form') body = <FormView key={screen.id} screen={screen} />;
  else {
    const C = customComponents[screen.component];
    body = <C />;
  }
  return (
    <Shell user={user} screens={forcedChange ? [] : screens}>
      <Suspense fallback={<Loader delayMs={500} />}>{body}</Suspense>
    </Shell>
  );
}

/** The router of these screens; `registries` (composed by src/main.tsx) holds the hand-written components and row modals. */
export function buildRouter(screens: readonly AnyScreen[], registries: Registries) {
  const rootRoute = createRootRoute({
    component: () => (
      <RegistriesProvider value={registries}>
        <SessionWatcher />
        <Outlet />
        <Toasts />
      </RegistriesProvider>
    ),
    notFoundComponent: () => <Navigate to="/" replace />,
  });
  const indexRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    beforeLoad: () => {
      const ok = tokenState(getToken(), Date.now());
      const user = currentUser();
      const signedIn = user && (ok === 'valid' || ok === 'refresh');
      throw redirect({ to: signedIn ? (mustChangePassword() ? RESET_PASSWORD_ROUTE : homeRouteFor(user.permissions)) : '/login', replace: true });
    },
  });
  const screenRoutes = screens.map((screen) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path: screen.route,
      validateSearch: (s: Record<string, unknown>) => s,
      component: () => <ScreenHost screen={screen} screens={screens} customComponents={registries.customComponents} />,
    }),
  );
  return createRouter({ routeTree: rootRoute.addChildren([indexRoute, ...screenRoutes]), defaultPreload: false });
}
