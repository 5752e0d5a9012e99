/** Every area's handlers; the API refuses to start unless they cover exactly `allCalls`. */
import type { Handler } from '../http/handle';
import { authHandlers } from './auth';
import { roleHandlers } from './roles';
import { userHandlers } from './users';
import { transactionHandlers } from './transactions/handlers';
import { appDashboardHandlers } from './dashboard/app';
import { auditDashboardHandlers } from './dashboard/audit';
import { kycHandlers } from './kyc';
import { reportHandlers } from './reports';
import { masterDataHandlers } from './masterData';
import { configHandlers } from './config';
import { finderHandlers } from './finder';
import { approvalHandlers } from './approvals';
import { controlHandlers } from './controls';
import { exportJobHandlers } from './exportJobs';

export const allHandlers: readonly Handler[] = [
  ...authHandlers,
  ...userHandlers,
  ...roleHandlers,
  ...kycHandlers,
  ...reportHandlers,
  ...transactionHandlers,
  ...appDashboardHandlers,
  ...auditDashboardHandlers,
  ...masterDataHandlers,
  ...configHandlers,
  ...finderHandlers,
  ...approvalHandlers,
  ...controlHandlers,
  ...exportJobHandlers,
];
