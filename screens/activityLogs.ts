/** The Activity Log Report and the User Activity Log Report (spec 002 §2). */
import { fetchCountOf } from '../src/api/contract';
import { defineListScreen } from '../src/definitions/definitions';
import { activityReport, mobileActivityReport, type ActivityLogRow, type MobileActivityRow } from '../src/api/reports';
import { wireFrom, wireTo } from '../src/domain/dates';
import { limits } from '../src/domain/validation';
import { REPORT_PAGE_SIZE } from '../src/domain/reports';

export const activityLogsScreen = defineListScreen<ActivityLogRow>()({
  kind: 'list',
  id: 'activityLogs',
  pinnedColumns: ['id', 'user'],
  route: '/activityLogs',
  title: 'Activity Log Report',
  breadcrumb: [{ label: 'Activity Log Report' }],
  access: { anyOf: ['activity-log-report-view'] },
  menu: { section: 'Reports', label: 'Activity Logs', order: 90 },
  source: {
    call: activityReport,
    request: (f) => ({ from: wireFrom(String(f.from)), to: wireTo(String(f.to), String(f.from)), fetchCount: fetchCountOf(f.fetchCount), username: String(f.username ?? '') }),
    rows: (d) => d.logs,
  },
  filters: [
    { kind: 'dateTimeRange', from: 'from', to: 'to' },
    { kind: 'text', key: 'username', label: 'Username', maxLength: limits.searchText },
    { kind: 'fetchCount', key: 'fetchCount' },
  ],
  clearButton: true,
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'level', header: 'Level' },
    { key: 'type', header: 'Type' },
    { key: 'user', header: 'User' },
    { key: 'description', header: 'Description' },
    { key: 'created_at', header: 'Log Date', kind: 'datetime' },
  ],
  pageSize: REPORT_PAGE_SIZE,
  defaultSort: { key: 'id', desc: true },
  emptyMessage: 'No activity logs found.',
  exports: { fileBase: 'Activity_Log_Report', title: 'Activity Log Report' },
});

export const userActivityLogsScreen = defineListScreen<MobileActivityRow>()({
  kind: 'list',
  id: 'userActivityLogs',
  pinnedColumns: ['id', 'mobile_user_name'],
  route: '/userActivityLogs',
  title: 'User Activity Log Report',
  breadcrumb: [{ label: 'User Activity Log Report' }],
  access: { anyOf: ['activity-log-report-view'] },
  menu: { section: 'Reports', label: 'User Activity Logs', order: 91 },
  source: {
    call: mobileActivityReport,
    request: (f) => ({
      from: wireFrom(String(f.from)),
      to: wireTo(String(f.to), String(f.from)),
      fetchCount: fetchCountOf(f.fetchCount),
      searchParameter: String(f.searchParameter ?? ''),
    }),
    rows: (d) => d.filteredList,
  },
  filters: [
    { kind: 'dateTimeRange', from: 'from', to: 'to' },
    { kind: 'text', key: 'searchParameter', label: 'Username/Email/Phone Number', maxLength: limits.searchText },
    { kind: 'fetchCount', key: 'fetchCount' },
  ],
  clearButton: true,
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'mobile_user_name', header: 'Mobile User Name' },
    { key: 'mobile_user_email', header: 'Mobile User Email' },
    { key: 'device_name', header: 'Device Name' },
    { key: 'event_description', header: 'Event Description' },
    { key: 'created_at', header: 'Log Date', kind: 'datetime' },
  ],
  pageSize: REPORT_PAGE_SIZE,
  defaultSort: { key: 'id', desc: true },
  emptyMessage: 'No user activity logs found.',
  exports: { fileBase: 'User_Activity_Log_Report', title: 'User Activity Log Report' },
});
