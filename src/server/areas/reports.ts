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
import { handle, type Ctx } from '../http/handle';
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

export const reportHandlers = [
  handle(
    activityReport,
    async (ctx, { from, to, fetchCount, username }) => {
      await notAnIpgBankUser(ctx);
      const { start, end } = minuteRange(from, to, ctx.businessTimeZone);
      const fromWhere = `FROM activity_logs
        WHERE created_at >= $1 AND created_at < $2
          AND ($3 = '' OR strpos(lower(username), lower($3)) > 0)`;
      const rows = await ctx.readDb.query<{ id: number; level: string; type: string; username: string; description: string; created_at: Date }>(
        `SELECT id, level, type, username, description, created_at
         ${fromWhere}
        ORDER BY created_at DESC, id DESC
        LIMIT $4`,
        [start, end, username.trim(), fetchCount],
      );
      const logs: ActivityLogRow[] = rows.map((r) => ({
        id: r.id,
        level: r.level,
        type: r.type,
        user: r.username,
        description: r.description,
        created_at: r.created_at.toISOString(),
      }));
      return { data: { logs, filteredList: logs, fields: activityFields }, top: { matching: await matchingRows(ctx.readDb, rows.length, fetchCount, fromWhere, [start, end, username.trim()]) } };
    },
    { guards: [notAnIpgBankUser] },
  ),

  handle(
    mobileActivityReport,
    async (ctx, { from, to, fetchCount, searchParameter }) => {
      await notAnIpgBankUser(ctx);
      const { start, end } = minuteRange(from, to, ctx.businessTimeZone);
      const text = searchParameter.trim();
      const fromWhere = `FROM mobile_activity_logs m
         JOIN app_users u ON u.id = m.app_user_id
        WHERE m.created_at >= $1 AND m.created_at < $2
          AND ($3 = '' OR strpos(lower(u.first_name || ' ' || u.last_name), lower($3)) > 0
               OR strpos(lower(u.email), lower($3)) > 0 OR strpos(u.contact, $3) > 0)`;
      const rows = await ctx.readDb.query<{ id: number; name: string; email: string; device_name: string; event_description: string; created_at: Date }>(
        `SELECT m.id, u.first_name || ' ' || u.last_name AS name, u.email, m.device_name, m.event_description, m.created_at
         ${fromWhere}
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT $4`,
        [start, end, text, fetchCount],
      );
      const filteredList: MobileActivityRow[] = rows.map((r) => ({
        id: r.id,
        mobile_user_name: r.name,
        mobile_user_email: r.email,
        device_name: r.device_name,
        event_description: r.event_description,
        created_at: r.created_at.toISOString(),
      }));
      return { data: { filteredList, fields: mobileActivityFields }, top: { matching: await matchingRows(ctx.readDb, rows.length, fetchCount, fromWhere, [start, end, text]) } };
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
