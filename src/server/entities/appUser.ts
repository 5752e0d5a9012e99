/** App users as a maker-checker entity: activate/deactivate and hold/unhold. */
import { appUserRecord } from '../../../screens/appUsers';
import { type EntityAdapter } from '../changeRequests';
import type { Row } from '../db/db';
import { HttpError } from '../http/httpError';

/**
 * An app user request: the user's state after the change. `name` and `uid` are shown to the
 * approver only; `comment` is the maker's hold/unhold comment.
 */
export interface AppUserPayload {
  name: string;
  uid: string;
  disabled: 0 | 1;
  hold: 0 | 1;
  user_hold_reason: string;
  comment?: string;
}

export const appUserEntity: EntityAdapter<AppUserPayload> = {
  type: appUserRecord.type,
  record: appUserRecord,
  table: 'app_users',

  fromRow: (row: Row) => ({
    name: `${String(row.first_name)} ${String(row.last_name)}`,
    uid: `${String(row.uid_type)} ${String(row.uid)}`,
    disabled: Number(row.disabled) === 0 ? 0 : 1,
    hold: Number(row.hold) === 0 ? 0 : 1,
    user_hold_reason: row.user_hold_reason === null || row.user_hold_reason === undefined ? '' : String(row.user_hold_reason),
  }),

  async apply(db, action, recordId, v) {
    if (action === 'CREATE') throw new HttpError(422, 'App users register in the mobile app');
    await db.query('UPDATE app_users SET disabled = $2, hold = $3, user_hold_reason = $4 WHERE id = $1', [
      recordId,
      action === 'DELETE' ? 1 : v.disabled,
      v.hold,
      v.user_hold_reason === '' ? null : v.user_hold_reason,
    ]);
    return recordId!;
  },
};
