/** App users: search, and activate/deactivate and hold/unhold through maker-checker. */
import { appUserApprove, appUserDisable, appUserHold, appUserList, type AppUserRow } from '../../api/appUsers';
import { exportFieldsOf } from '../../definitions/exportFields';
import { hasPermission } from '../../domain/permissions';
import { appUserStatusText } from '../../domain/recordStatus';
import { decide, pendingChangeRequests, submit, type SubmitRequest } from '../changeRequests';
import { appUserEntity, type AppUserPayload } from '../entities/appUser';
import type { Row } from '../db/db';
import { handle, type BodyOf, type Ctx } from '../http/handle';
import { pageSql, type ListRows } from '../db/keyset';
import { matchingRows } from './matching';
import { HttpError, notFound } from '../http/httpError';
import { appUsersScreen } from '../../../screens/appUsers';

/** The export columns of the app users list: the screen definition's, so table, exports and reply agree. */
const appUserExportFields = exportFieldsOf(appUsersScreen);

interface AppUserTableRow {
  id: number;
  first_name: string;
  last_name: string;
  uid_type: string;
  uid: string;
  contact: string;
  email: string;
  country: string;
  country_name: string;
  disabled: number;
  hold: number;
  locked: number;
  user_hold_reason: string | null;
  selfie: string | null;
  uid_front: string | null;
  uid_back: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A list row; the identity documents' paths as signed URLs (`sign`), which GET /images needs for them. */
function toAppUserRow(r: AppUserTableRow, sign: (path: string | null) => string | null): AppUserRow {
  return {
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    uidType: r.uid_type,
    uid: r.uid,
    contact: r.contact,
    email: r.email,
    country: r.country_name,
    countryCode: r.country,
    status: appUserStatusText(r.disabled, r.hold),
    disabled: r.disabled,
    hold: r.hold,
    locked: r.locked,
    user_hold_reason: r.user_hold_reason ?? '',
    selfie: sign(r.selfie),
    uidFront: sign(r.uid_front),
    uidBack: sign(r.uid_back),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** A LIKE pattern matching values that start with the text. */
export function startsWithPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Reads the user under a row lock, builds the request from their current state and sends it. */
async function requestChange(ctx: Ctx, id: number, change: (current: AppUserPayload, locked: boolean) => AppUserPayload): Promise<number> {
  return ctx.tx(async (t) => {
    const row = await t.db.one<Row>('SELECT * FROM app_users WHERE id = $1 FOR UPDATE', [id]);
    if (!row) throw notFound('App user');
    const request: SubmitRequest<AppUserPayload> = { action: 'EDIT', recordId: id, payload: change(appUserEntity.fromRow(row), Number(row.locked) !== 0) };
    return submit(t, appUserEntity, request);
  });
}

/** The app users list's rows (its handler and its server export): search by UID, e-mail or contact, a country, newest first. */
export const appUserListRows: ListRows<BodyOf<typeof appUserList>, AppUserTableRow, Ctx> = {
  query: async (_ctx, { data: search, countryCode, fetchCount }) => {
    const text = search.trim().replace(/^\+/, '');
    return {
      sql: `SELECT u.id, u.first_name, u.last_name, u.uid_type, u.uid, u.contact, u.email, u.country, c.name AS country_name,
                   u.disabled, u.hold, u.locked, u.user_hold_reason, u.selfie, u.uid_front, u.uid_back, u.created_at, u.updated_at
              FROM app_users u JOIN countries c ON c.code = u.country
             WHERE ($1 = '' OR u.uid LIKE upper($2) OR lower(u.email) LIKE lower($2) OR u.contact LIKE $2)
               AND ($3 = '' OR u.country = $3)`,
      params: [text, startsWithPattern(text), countryCode],
      keys: [{ column: 'id', type: 'integer' }],
      descending: true,
      limit: fetchCount,
    };
  },
  toRow: (r, ctx) => toAppUserRow(r, ctx.auth.imageUrls.signOrNull),
};

export const appUserHandlers = [
  handle(appUserList, async (ctx, body) => {
    const q = await appUserListRows.query(ctx, body);
    const page = pageSql(q, q.limit);
    const rows = await ctx.db.query<AppUserTableRow>(page.sql, page.params);
    const countries = await ctx.db.query<{ code: string; name: string }>('SELECT code, name FROM countries ORDER BY name');
    const approver = hasPermission(ctx.user.permissions, 'app-user-approve');
    return {
      data: {
        appUsers: rows.map((r) => toAppUserRow(r, ctx.auth.imageUrls.signOrNull)),
        countries,
        changeRequests: approver ? await pendingChangeRequests(ctx.db, appUserEntity) : [],
        fields: appUserExportFields,
      },
      top: { matching: await matchingRows(ctx.db, rows.length, q.limit, `FROM (${q.sql}) page`, q.params) },
    };
  }),

  handle(
    appUserDisable,
    async (ctx, { id, disable }) => {
      const changeRequestId = await requestChange(ctx, id, (current, locked) => {
        const wanted = disable ? 1 : 0;
        if (!locked && current.disabled === wanted) throw new HttpError(422, `App user is already ${disable ? 'inactive' : 'active'}`);
        return { ...current, disabled: wanted };
      });
      return { data: { message: 'App user sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: appUserEntity.type, approve: appUserApprove } },
  ),

  handle(
    appUserHold,
    async (ctx, { id, hold, description }) => {
      const changeRequestId = await requestChange(ctx, id, (current, locked) => {
        const wanted = hold ? 1 : 0;
        if (!locked && current.hold === wanted) throw new HttpError(422, `App user is already ${hold ? 'on hold' : 'released'}`);
        return { ...current, hold: wanted, user_hold_reason: hold ? description : '', comment: description };
      });
      return { data: { message: 'App user sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: appUserEntity.type, approve: appUserApprove } },
  ),

  handle(appUserApprove, async (ctx, decision) => ({ data: await decide(ctx, appUserEntity, decision) }), { decides: [appUserEntity.type] }),
];
