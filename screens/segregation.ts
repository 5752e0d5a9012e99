/**
 * The segregation-of-duties report (src/server/segregation.ts): who can both make and approve in one
 * area, requests approved by their own maker (must be none), and pairs of users approving each other.
 * The same findings for the defined roles are in generated/segregation-of-duties.md.
 */
import { defineListScreen } from '../src/definitions/definitions';
import { sodReport, type SodFinding } from '../src/api/controls';
import { DEFAULT_MUTUAL_SHARE, DEFAULT_SOD_DAYS } from '../src/domain/segregation';

const shares = ['0.5', '0.66', '0.75', '0.9'];
const windows = ['90', '30', '365', '3650'];

export const segregationScreen = defineListScreen<SodFinding>()({
  kind: 'list',
  id: 'segregationOfDuties',
  route: '/reports/segregation-of-duties',
  title: 'Segregation of Duties',
  breadcrumb: [{ label: 'Segregation of Duties' }],
  access: { anyOf: ['sod-report-view'] },
  menu: { section: 'Reports', label: 'Segregation of Duties', order: 95 },
  source: {
    call: sodReport,
    request: (f) => ({
      threshold: shares.includes(String(f.threshold)) ? Number(f.threshold) : DEFAULT_MUTUAL_SHARE,
      days: windows.includes(String(f.days)) ? Number(f.days) : DEFAULT_SOD_DAYS,
    }),
    rows: (d) => d.findings,
  },
  filters: [
    {
      kind: 'select',
      key: 'threshold',
      label: 'Mutual approvals above',
      options: [
        { value: '0.5', label: '50% of their approvals' },
        { value: '0.66', label: '66% of their approvals' },
        { value: '0.75', label: '75% of their approvals' },
        { value: '0.9', label: '90% of their approvals' },
      ],
    },
    {
      kind: 'select',
      key: 'days',
      label: 'Decisions of the last',
      options: [
        { value: '90', label: '90 days' },
        { value: '30', label: '30 days' },
        { value: '365', label: '365 days' },
        { value: '3650', label: '10 years' },
      ],
    },
  ],
  pinnedColumns: ['id', 'subject'],
  columns: [
    { key: 'id', header: 'No', kind: 'integer' },
    { key: 'finding', header: 'Finding' },
    { key: 'subject', header: 'Role / User' },
    { key: 'area', header: 'Area' },
    { key: 'detail', header: 'Detail' },
  ],
  emptyMessage: 'No segregation-of-duties findings.',
  exports: { fileBase: 'Segregation_Of_Duties', title: 'Segregation of Duties' },
});
