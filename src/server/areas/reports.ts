/**
 * Reports: the server's own activity log, the mobile app users' activity events, the settlement
 * reports (src/server/areas/settlement.ts), and the export log.
 */
import { activityReport, logExport, mobileActivityReport, type ActivityLogRow, type MobileActivityRow } from '../../api/reports';
import { instantOf } from '../../domain/businessTime';
import { canOpen } from '../../definitions/access';
import { serverSettingsOf } from '../approvals';
import { exportFieldsOf } from '../../definitions/exportFields';
import { activityLogsScreen, userActivityLogsScreen } from '../../../screens/activityLogs';
import { screens } from '../../../screens';
import { handle, type BodyOf, type Ctx } from '../http/handle';
import { pageSql, type ListRows } from '../db/keyset';
import { providerScopeOf } from '../providerScope';
import { matchingRows } from './matching';
import { HttpError } from '../http/httpError';
import { settlementHandlers } from './settlement';

const activityFields = exportFieldsOf(activityLogsScreen);
const mobileActivityFields = exportFieldsOf(userActivityLogsScreen);

const MINUTE = 60_000;

/**
 * A report range at minute precision: from the start of the minute of `from` to the end of the minute
 * of `to` (the console sends From with seconds 1 and To with seconds 0), both wall-clock times of the
 * business time zone.
 */
export function minuteRange(from: string, to: string, zone: string): { start: Date; end: Date } {
  const f = instantOf(from, zone);
  const t = instantOf(to, zone);
  if (!f || !t) throw new HttpError(400, 'from: Please enter a valid date and time');
  return { start: new Date(Math.floor(f.getTime() / MINUTE) * MINUTE), end: new Date(Math.floor(t.getTime() / MINUTE) * MINUTE + MINUTE) };
}

/**
 * The activity logs are the service's own (src/server/permissionOptions.ts `notForIpgBank`): refused
 * to an IPG bank user whatever their role holds, as a role made before the rule may still hold it.
 */
export async function notAnIpgBankUser(ctx: Ctx): Promise<void> {
  if ((await providerScopeOf(ctx.db, ctx.user)) !== undefined) throw new HttpError(403, "Forbidden: the activity logs are the service's own; an IPG bank user may not read them");
}

interface ActivityQueryRow {
  id: number;
  level: string;
  type: string;
  username: string;
  description: string;
  created_at: Date;
}

const toActivityRow = (r: ActivityQueryRow): ActivityLogRow => ({
  id: r.id,
  level: r.level,
  type: r.type,
  user: r.username,
  description: r.description,
  created_at: r.created_at.toISOString(),
});

/** The activity log's rows (its handler and its server export): a minute range and a username, newest first; refused to an IPG bank user. */
export const activityRows: ListRows<BodyOf<typeof activityReport>, ActivityQueryRow, Ctx> = {
  async query(ctx, { from, to, fetchCount, username }) {
    await notAnIpgBankUser(ctx);
    const { start, end } = minuteRange(from, to, ctx.businessTimeZone);
    return {
      sql: `SELECT id, level, type, username, description, created_at FROM activity_logs
             WHERE created_at >= $1 AND created_at < $2
               AND ($3 = '' OR strpos(lower(username), lower($3)) > 0)`,
      params: [start, end, username.trim()],
      keys: [
        { column: 'created_at', type: 'timestamptz' },
        { column: 'id', type: 'bigint' },
      ],
      descending: true,
      limit: fetchCount,
    };
  },
  toRow: toActivityRow,
};

interface MobileActivityQueryRow {
  id: number;
  name: string;
  email: string;
  device_name: string;
  event_description: string;
  created_at: Date;
}

const toMobileActivityRow = (r: MobileActivityQueryRow): MobileActivityRow => ({
  id: r.id,
  mobile_user_name: r.name,
  mobile_user_email: r.email,
  device_name: r.device_name,
  event_description: r.event_description,
  created_at: r.created_at.toISOString(),
});

/** The app users' activity log's rows (its handler and its server export): a minute range and a name, e-mail or contact, newest first; refused to an IPG bank user. */
export const mobileActivityRows: ListRows<BodyOf<typeof mobileActivityReport>, MobileActivityQueryRow, Ctx> = {
  async query(ctx, { from, to, fetchCount, searchParameter }) {
    await notAnIpgBankUser(ctx);
    const { start, end } = minuteRange(from, to, ctx.businessTimeZone);
    return {
      sql: `SELECT m.id, u.first_name || ' ' || u.last_name AS name, u.email, m.device_name, m.event_description, m.created_at
              FROM mobile_activity_logs m
              JOIN app_users u ON u.id = m.app_user_id
             WHERE m.created_at >= $1 AND m.created_at < $2
               AND ($3 = '' OR strpos(lower(u.first_name || ' ' || u.last_name), lower($3)) > 0
                    OR strpos(lower(u.email), lower($3)) > 0 OR strpos(u.contact, $3) > 0)`,
      params: [start, end, searchParameter.trim()],
      keys: [
        { column: 'created_at', type: 'timestamptz' },
        { column: 'id', type: 'bigint' },
      ],
      descending: true,
      limit: fetchCount,
    };
  },
  toRow: toMobileActivityRow,
};

export const reportHandlers = [
  handle(
    activityReport,
    async (ctx, body) => {
      const q = await activityRows.query(ctx, body);
      const page = pageSql(q, q.limit);
      const rows = await ctx.readDb.query<ActivityQueryRow>(page.sql, page.params);
      const logs = rows.map(toActivityRow);
      return { data: { logs, filteredList: logs, fields: activityFields }, top: { matching: await matchingRows(ctx.readDb, rows.length, q.limit, `FROM (${q.sql}) page`, q.params) } };
    },
    { guards: [notAnIpgBankUser] },
  ),

  handle(
    mobileActivityReport,
    async (ctx, body) => {
      const q = await mobileActivityRows.query(ctx, body);
      const page = pageSql(q, q.limit);
      const rows = await ctx.readDb.query<MobileActivityQueryRow>(page.sql, page.params);
      const filteredList = rows.map(toMobileActivityRow);
      return { data: { filteredList, fields: mobileActivityFields }, top: { matching: await matchingRows(ctx.readDb, rows.length, q.limit, `FROM (${q.sql}) page`, q.params) } };
    },
    { guards: [notAnIpgBankUser] },
  ),

  handle(
    logExport,
    async (ctx, { screen: screenId, fileName, rows }) => {
      const screen = screens.find((s) => s.id === screenId);
      if (!screen) throw new HttpError(400, `screen: Unknown screen ${screenId}`);
      if (!canOpen(screen, ctx.user.permissions, serverSettingsOf(ctx))) throw new HttpError(403, `Forbidden: you may not open ${screen.title}`);
      await ctx.log({
        type: 'EXPORT',
        description: `Exported ${rows} row${rows === 1 ? '' : 's'} of ${screen.title} as ${fileName}`,
        after: { screen: screen.id, fileName, rows },
      });
      return { data: { message: 'Export logged' } };
    },
    { guards: [canOpen] },
  ),

  ...settlementHandlers,
];
