/** App users (spec 002 §2 "App Users list"). */
import { defineListScreen } from '../src/definitions/definitions';
import { defineRecord, statusDisplay } from '../src/definitions/records';
import { appUserApprove, appUserDisable, appUserHold, appUserLimits, appUserList, appUserMessages, type AppUserRow } from '../src/api/appUsers';
import { fetchCountOf } from '../src/api/contract';
import { isLocked, isUnlocked } from '../src/domain/guards';
import { limits } from '../src/domain/validation';
import { activateLabel } from './providers';

/** 'Hold' for a user not on hold, 'Unhold' for one on hold. */
export function holdLabel(row: { hold: number }): string {
  return row.hold === 0 ? 'Hold' : 'Unhold';
}

/**
 * An app user as its change requests show it (no form: activate/deactivate and hold/unhold are row
 * actions): the name and UID for the approver, the state after the change, and the maker's comment.
 */
export const appUserRecord = defineRecord({
  type: 'App User',
  fields: [
    { kind: 'text', name: 'name', key: 'name', header: 'Name' },
    { kind: 'text', name: 'uid', key: 'uid', header: 'UID' },
    statusDisplay,
    { kind: 'yesNo', name: 'hold', key: 'hold', header: 'Hold' },
    { kind: 'text', name: 'user_hold_reason', key: 'user_hold_reason', header: 'Hold Reason' },
    { kind: 'text', name: 'comment', key: 'comment', header: 'Comment' },
  ],
});

const nameOf = (row: AppUserRow) => `${row.firstName} ${row.lastName} (${row.uidType} ${row.uid})`;

export const appUsersScreen = defineListScreen<AppUserRow>()({
  kind: 'list',
  id: 'appUsers',
  pinnedColumns: ['id', 'uid'],
  route: '/appUsers',
  title: 'App Users',
  breadcrumb: [{ label: 'App Users' }],
  access: { anyOf: ['app-user-view', 'auditor-app-user-view'] },
  menu: { section: 'Administrator', label: 'App Users', order: 60 },
  source: {
    call: appUserList,
    request: (f) => ({ data: String(f.data ?? ''), countryCode: String(f.countryCode ?? ''), fetchCount: fetchCountOf(f.fetchCount) }),
    rows: (d) => d.appUsers,
    changeRequests: (d) => d.changeRequests,
  },
  filters: [
    { kind: 'text', key: 'data', label: 'UID/Email/Contact Number', maxLength: limits.searchText },
    { kind: 'dataSelect', key: 'countryCode', label: 'Country', allLabel: 'All Countries', options: (d) => d.countries.map((c) => ({ value: c.code, label: c.name })) },
    { kind: 'fetchCount', key: 'fetchCount' },
  ],
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'firstName', header: 'First Name' },
    { key: 'lastName', header: 'Last Name' },
    { key: 'uidType', header: 'UID Type' },
    { key: 'uid', header: 'UID' },
    { key: 'contact', header: 'Contact Number' },
    { key: 'email', header: 'Email' },
    { key: 'country', header: 'Country' },
    { key: 'status', header: 'Status', kind: 'status' },
    { key: 'updated_at', header: 'Last Login', kind: 'datetime' },
    { key: 'created_at', header: 'Registered', kind: 'datetime' },
    { key: 'user_hold_reason', header: 'Hold Reason' },
  ],
  // the specification's order: ..., registered, images, action, hold reason
  actionsBefore: 'user_hold_reason',
  defaultSort: { key: 'id', desc: true },
  changeRequests: { permission: 'app-user-approve', approve: appUserApprove, entity: 'App user' },
  lockedWhen: isLocked,
  rowActions: [
    {
      id: 'images',
      label: 'Images',
      permission: 'app-user-view',
      anyOf: ['auditor-app-user-view'],
      showWhenLocked: true,
      column: 'Images',
      run: {
        kind: 'images',
        title: 'User Images',
        images: [
          { key: 'selfie', label: 'Selfie' },
          { key: 'uidFront', label: 'UID Front' },
          { key: 'uidBack', label: 'UID Back', optional: true },
        ],
      },
    },
    {
      id: 'activate',
      label: activateLabel,
      permission: 'app-user-edit',
      when: isUnlocked,
      run: {
        kind: 'call',
        call: appUserDisable,
        body: (row) => ({ id: row.id, disable: row.disabled === 0 }),
        confirm: { title: 'Warning!', message: (row) => `Do you want to ${activateLabel(row).toLowerCase()} ${nameOf(row)}? The change is sent for approval.` },
        success: () => 'App user sent for approval',
        failure: 'App user disable failed',
        serverMessage: false,
      },
    },
    {
      id: 'hold',
      label: holdLabel,
      permission: 'app-user-edit',
      when: isUnlocked,
      run: {
        kind: 'call',
        call: appUserHold,
        body: (row, { comment }) => ({ id: row.id, hold: row.hold === 0, description: comment }),
        confirm: { title: 'Hold/Unhold', message: (row) => `${holdLabel(row)} ${nameOf(row)}? The change is sent for approval.` },
        input: { label: 'Comment', maxLength: appUserLimits.holdComment, requiredMessage: appUserMessages.holdComment },
        success: () => 'App user sent for approval',
        failure: 'App user hold failed',
        serverMessage: false,
      },
    },
  ],
  exports: { fileBase: 'AppUsers', title: 'App Users' },
});
