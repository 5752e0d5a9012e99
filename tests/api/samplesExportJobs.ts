/** Sample bodies of the server export job calls (src/api/exportJobs.ts). */
import { transactionSamples } from './samplesTransactions';

export const exportJobSamples: Record<string, unknown> = {
  'export/start-job': { call: 'Transaction/get-ceftTransaction', body: transactionSamples['Transaction/get-ceftTransaction'], format: 'csv' },
  'export/my-job': {},
  'export/job-status': { jobId: 1 },
  'export/cancel-job': { jobId: 1 },
  'export/download-link': { jobId: 1 },
};
