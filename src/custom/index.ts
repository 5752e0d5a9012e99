/** The hand-written screens, by the component name their definitions use. Each is its own lazy chunk. */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { registerRowModal } from '../console/views/RowActions';

export const customComponents: Record<string, LazyExoticComponent<ComponentType<Record<string, never>>>> = {
  Login: lazy(() => import('./Login')),
  ResetPassword: lazy(() => import('./ResetPassword')),
  Dashboard: lazy(() => import('./Dashboard')),
  AuditDashboard: lazy(() => import('./AuditDashboard')),
  ProviderCurrencies: lazy(() => import('./ProviderCurrencies')),
  Approvals: lazy(() => import('./Approvals')),
  MyRequests: lazy(() => import('./MyRequests')),
};

registerRowModal('changePassword', lazy(() => import('./ChangePasswordModal')));
registerRowModal('kycReview', lazy(() => import('./KycReview')));
