/**
 * Column order (spec 000 §2 Users, 001 §2 Insurance, 002 §2 App Users, KYC, Activity Log Report): the
 * headers a list shows by default, in the order the specification lists them, pinned columns in their
 * places, and the same order as the export's columns.
 */
import { describe, expect, it } from 'vitest';
import { screens } from '../../screens';
import { columnLayout } from '../../src/console/views/DataTable';
import { arrangeColumns, NO_PREFS } from '../../src/console/views/ColumnChooser';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import type { AnyListScreen } from '../../src/definitions/definitions';

/** The headers of a list's table as ListView lays them out for a user holding every action's permission. */
function headersShown(s: AnyListScreen): string[] {
  const shown = arrangeColumns(s.columns, s.pinnedColumns ?? [], NO_PREFS);
  const own = (s.rowActions ?? []).filter((a) => a.column);
  const inAction = (s.rowActions ?? []).some((a) => !a.column) || !!s.lockedWhen;
  const layout = columnLayout(
    shown.map((c) => c.key),
    own.map((a) => `own:${a.id}`),
    inAction ? 'Action' : undefined,
    s.actionsBefore,
  );
  return layout.map((k) => (k === 'Action' ? 'Action' : k.startsWith('own:') ? own.find((a) => `own:${a.id}` === k)!.column! : s.columns.find((c) => c.key === k)!.header));
}

const list = (id: string) => screens.find((s): s is AnyListScreen => s.kind === 'list' && s.id === id)!;

const specOrder: Record<string, string[]> = {
  // 002: id, firstName, lastName, uidType, uid, contact, email, country, status, last login, registered, images, action, hold reason
  appUsers: ['ID', 'First Name', 'Last Name', 'UID Type', 'UID', 'Contact Number', 'Email', 'Country', 'Status', 'Last Login', 'Registered', 'Images', 'Action', 'Hold Reason'],
  // 002: ID, First Name, Last Name, UID Type, UID, Contact Number, Email, KYC Status, Created At, Updated At, Review button
  kyc: ['ID', 'First Name', 'Last Name', 'UID Type', 'UID', 'Contact Number', 'Email', 'KYC Status', 'Created At', 'Updated At', 'Action'],
  // 002: id, level, type, user, description, log date
  activityLogs: ['ID', 'Level', 'Type', 'User', 'Description', 'Log Date'],
  // 000: ID, Name, Email, Contact Number, Username, Branch, Status, Created At, Updated At, Action; then ours
  users: ['ID', 'Name', 'Email', 'Contact Number', 'Username', 'Branch', 'Status', 'Created At', 'Updated At', 'Action', 'Sign-in'],
};

describe('column order follows the specification', () => {
  for (const [id, headers] of Object.entries(specOrder))
    it(`${id}: ${headers.join(', ')}`, () => {
      expect(headersShown(list(id))).toEqual(headers);
    });

  it('insurance: ID, UID No, Trace Number, UID/NIC, Email, Dependents Detail, Country, ... (Trace third, though pinned)', () => {
    expect(headersShown(list('transactions.insurance')).slice(0, 7)).toEqual(['ID', 'UID No', 'Trace Number', 'UID/NIC', 'Email', 'Dependents Detail', 'Country']);
  });

  it('every list shows its data columns in the order its export writes them', () => {
    for (const s of screens.filter((x): x is AnyListScreen => x.kind === 'list')) {
      const exported = new Set(exportFieldsOf(s).map((f) => f.dataKey));
      const shownInExport = arrangeColumns(s.columns, s.pinnedColumns ?? [], NO_PREFS)
        .filter((c) => c.export !== false && c.kind !== 'image')
        .flatMap((c) => (c.panel ? c.panel.map((p) => p.key) : [c.key]))
        .filter((k) => exported.has(k));
      expect(shownInExport, s.id).toEqual(exportFieldsOf(s).map((f) => f.dataKey));
    }
  });
});
