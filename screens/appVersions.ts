/** App versions: list and create (spec 002 §2 "App Versions list", "Create App Version"). */
import { defineFormScreen, defineListScreen } from '../src/definitions/definitions';
import { recordFromForm } from '../src/definitions/records';
import { appVersionApprove, appVersionCreate, appVersionFormSchema, appVersionList, platformLabels, platforms, versionLimits, type AppVersionRow, type Platform } from '../src/api/appVersions';

export const appVersionsScreen = defineListScreen<AppVersionRow>()({
  kind: 'list',
  id: 'appVersions',
  pinnedColumns: ['id', 'version'],
  route: '/appVersions',
  title: 'App Versions',
  breadcrumb: [{ label: 'App Versions' }],
  access: { anyOf: ['app-version-view'] },
  menu: { section: 'Administrator', label: 'App Versions', order: 70 },
  source: { call: appVersionList, request: () => ({}), rows: (d) => d.list, changeRequests: (d) => d.changeRequests },
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'version', header: 'Version' },
    { key: 'platforms', header: 'Platforms', kind: 'tags' },
    { key: 'force_update', header: 'Force Update', kind: 'yesNo' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
  ],
  pageSize: 15,
  defaultSort: { key: 'id', desc: true },
  createButton: { label: 'Create App Version', permission: 'app-version-create', to: '/appVersions/create' },
  changeRequests: { permission: 'app-version-approve', approve: appVersionApprove, entity: 'AppVersion' },
});

export type AppVersionFormValues = { appVersion: string; platforms: Platform[]; forceUpdate: 0 | 1 };

const appVersionFields = [
  {
    kind: 'version',
    key: 'appVersion',
    label: 'Version',
    required: true,
    parts: ['Major', 'Minor', 'Patch', 'Build'],
    maxDigits: versionLimits.digits,
    approval: { name: 'version' },
  },
  { kind: 'toggles', key: 'platforms', label: 'Platforms', required: true, options: platforms.map((p) => ({ value: p, label: platformLabels[p] })) },
  { kind: 'switch', key: 'forceUpdate', label: 'Force Update', approval: { name: 'force_update' } },
] as const;

/** An app version as its change requests show it: the form's fields. */
export const appVersionRecord = recordFromForm('App Version', appVersionFields);

export const appVersionCreateScreen = defineFormScreen<AppVersionFormValues>()({
  kind: 'form',
  mode: 'create',
  id: 'appVersions.create',
  route: '/appVersions/create',
  title: 'Create App Version',
  breadcrumb: [{ label: 'App Versions', to: '/appVersions' }, { label: 'Create' }],
  access: { anyOf: ['app-version-create'] },
  schema: appVersionFormSchema,
  defaults: { appVersion: '', platforms: [], forceUpdate: 0 },
  fields: appVersionFields,
  submit: { call: appVersionCreate, request: (v) => ({ appVersion: v.appVersion, platforms: v.platforms.join(','), forceUpdate: v.forceUpdate }) },
  messages: { success: 'AppVersion sent for approval', failure: 'AppVersion save failed!.' },
  back: '/appVersions',
});
