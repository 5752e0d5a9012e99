/** Every call of the wire contract. The server registers exactly these; the console calls only these. */
import type { CallContract } from './contract';
import { authCalls } from './auth';
import { userCalls } from './users';
import { roleCalls } from './roles';
import { transactionCalls } from './transactions';
import { dashboardCalls } from './dashboard';
import { kycCalls } from './kyc';
import { reportCalls } from './reports';
import { masterDataCalls } from './masterData';
import { configCalls } from './config';
import { finderCalls } from './finder';
import { approvalCalls } from './approvals';
import { controlCalls } from './controls';
import { exportJobCalls } from './exportJobs';

export const allCalls: readonly CallContract[] = [
  ...authCalls,
  ...userCalls,
  ...roleCalls,
  ...kycCalls,
  ...reportCalls,
  ...transactionCalls,
  ...dashboardCalls,
  ...masterDataCalls,
  ...configCalls,
  ...finderCalls,
  ...approvalCalls,
  ...controlCalls,
  ...exportJobCalls,
];

export function findCall(path: string): CallContract | undefined {
  const wanted = path.toLowerCase();
  return allCalls.find((c) => c.path.toLowerCase() === wanted);
}
