/** App versions: list and maker-checker create. */
import { appVersionApprove, appVersionCreate, appVersionList, platforms as allPlatforms, splitPlatforms, type AppVersionRow } from '../../api/appVersions';
import { decide, pendingChangeRequests, submit } from '../changeRequests';
import { appVersionEntity } from '../entities/appVersion';
import { handle } from '../http/handle';

interface AppVersionTableRow {
  id: number;
  app_version: string;
  platforms: unknown;
  force_update: number;
  locked: number;
  created_at: Date;
  updated_at: Date;
}

function toAppVersionRow(r: AppVersionTableRow): AppVersionRow {
  return {
    id: r.id,
    version: r.app_version,
    platforms: Array.isArray(r.platforms) ? r.platforms.map(String) : [],
    force_update: r.force_update,
    locked: r.locked,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export const appVersionHandlers = [
  handle(appVersionList, async (ctx) => {
    const rows = await ctx.db.query<AppVersionTableRow>('SELECT id, app_version, platforms, force_update, locked, created_at, updated_at FROM app_versions ORDER BY id DESC');
    return { data: { changeRequests: await pendingChangeRequests(ctx.db, appVersionEntity), list: rows.map(toAppVersionRow) } };
  }),

  handle(
    appVersionCreate,
    async (ctx, { appVersion, platforms, forceUpdate }) => {
      // the platforms in their canonical order: ANDROID, IOS, HUAWEI
      const chosen = splitPlatforms(platforms);
      const payload = { appVersion, platforms: allPlatforms.filter((p) => chosen.includes(p)), forceUpdate };
      const changeRequestId = await submit(ctx, appVersionEntity, { action: 'CREATE', payload });
      return { data: { message: 'AppVersion sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: appVersionEntity.type, approve: appVersionApprove } },
  ),

  handle(appVersionApprove, async (ctx, decision) => ({ data: await decide(ctx, appVersionEntity, decision) }), { decides: [appVersionEntity.type] }),
];
