import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { screens } from '../screens';
import { buildRouter } from './console/router';
import { assertDefinitions } from './definitions/checks';
import type { Registries } from './console/registries';
import { customComponents, rowModals } from './custom';
import { applyTheme, currentTheme } from './console/shell';
import './styles.css';
import { loadRuntimeConfig } from './console/apiBase';

applyTheme(currentTheme());

// the typed registries of hand-written parts: a definition naming a component or modal not here does not compile
const registries: Registries = { customComponents, rowModals };

// the definitions' start-up checks while developing (vite dev): the same checks keep a production build from
// shipping (tests/unit/checks.test.ts runs them with these registries, and the server refuses to start
// on them: src/server/startupChecks.ts), so the built console leaves them out of its first load
if (import.meta.env.DEV) assertDefinitions(screens, { hasModal: (name) => Object.hasOwn(registries.rowModals, name), menuRoutes: ['/resetPassword'] });
const router = buildRouter(screens, registries);
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 0 } } });

// where the calls go (config.json beside the console), read before the first call
void loadRuntimeConfig().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
