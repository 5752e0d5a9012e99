import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { screens } from '../screens';
import { buildRouter } from './console/router';
import { assertDefinitions } from './definitions/checks';
import { hasRowModal } from './console/views/RowActions';
import { applyTheme, currentTheme } from './console/shell';
import './styles.css';

applyTheme(currentTheme());

assertDefinitions(screens, { hasModal: hasRowModal, menuRoutes: ['/resetPassword'] });
const router = buildRouter(screens);
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 0 } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
