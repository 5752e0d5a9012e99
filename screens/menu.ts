/** The sidebar's sections, in order, and who sees the gated ones (spec 000 §2). */
import type { MenuSectionDef } from '../src/definitions/definitions';

export const menuSections: readonly MenuSectionDef[] = [
  { section: 'Main' },
  {
    section: 'Administrator',
    shownWith: ['user-view', 'role-view', 'bank-view', 'exchange-house-view', 'advertisement-view', 'app-user-view', 'auditor-app-user-view', 'ipg-provider-view', 'app-version-view'],
  },
  { section: 'Reports', shownWith: ['bill-payment-report-view', 'send-money-report-view', 'thyaga-report-view', 'echannelling-report-view', 'track-remit-report-view'] },
  { section: 'Audit Reports' },
];
