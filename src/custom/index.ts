/**
 * The hand-written screens and row modals, by the names their definitions use
 * (src/definitions/registries.ts). src/main.tsx passes these maps into the runtime; `satisfies` makes a
 * missing or unknown name a compile error. Each entry is its own lazy chunk.
 */
import { lazy } from 'react';
import type { Registries } from '../console/registries';

export const customComponents = {
  Login: lazy(() => import('./Login')),
  ResetPassword: lazy(() => import('./ResetPassword')),
  Dashboard: lazy(() => import('./Dashboard')),
  AuditDashboard: lazy(() => import('./AuditDashboard')),
  ProviderCurrencies: lazy(() => import('./ProviderCurrencies')),
  Approvals: lazy(() => import('./Approvals')),
  MyRequests: lazy(() => import('./MyRequests')),
} satisfies Registries['customComponents'];

export const rowModals = {
  changePassword: lazy(() => import('./ChangePasswordModal')),
  kycReview: lazy(() => import('./KycReview')),
} satisfies Registries['rowModals'];
