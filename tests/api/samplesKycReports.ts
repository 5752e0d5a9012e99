/** Sample bodies of the KYC and report calls (spread into tests/api/samples.ts). */
import { kycFieldOrder, kycFieldTitles } from '../../src/domain/kyc';

/** A KYC data object with every field approved. */
export const approvedKycData = Object.fromEntries(
  kycFieldOrder.map((k) => [k, { title: kycFieldTitles[k], value: k.endsWith('Image') ? `images/kyc/u1/s1-${k}.png` : `value of ${k}`, approved: true, reason: '' }]),
);

export const kycReportsSamples: Record<string, unknown> = {
  'kyc/get-all': { data: '', kycStatus: '', fetchCount: 10 },
  'kyc/create-request': { userId: 1, kycData: approvedKycData },
  'kyc/update-status': { kycId: 1, kycData: approvedKycData },
  'report/get-activity-report': { from: '2024-01-01T00:00:01', to: '2024-01-01T23:59:00', fetchCount: 10, username: '' },
  'Report/get-mobile-activity-report': { from: '2024-01-01T00:00:01', to: '2024-01-01T23:59:00', fetchCount: 10, searchParameter: '' },
  'report/log-export': { screen: 'users', fileName: 'Users.xlsx', rows: 3 },
  'report/get-settlement-report': { date: '2024-01-01', fetchCount: 10 },
  'Report/get-instant-settlement-report': { date: '2024-01-01' },
  'report/generate-settlement-report': { useYesterdaysRates: true },
  'report/generate-instant-settlement-report': { useYesterdaysRates: true },
};
