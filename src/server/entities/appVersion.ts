/** App versions as a maker-checker entity (created only). */
import { appVersionRecord } from '../../../screens/appVersions';
import type { Platform } from '../../api/appVersions';
import { isPendingCreation, type EntityAdapter } from '../changeRequests';
import type { Row } from '../db/db';
import { HttpError } from '../http/httpError';

export interface AppVersionPayload {
  appVersion: string;
  platforms: Platform[];
  forceUpdate: 0 | 1;
}

export const appVersionEntity: EntityAdapter<AppVersionPayload> = {
  type: appVersionRecord.type,
  record: appVersionRecord,
  table: 'app_versions',

  fromRow: (row: Row) => ({
    appVersion: String(row.app_version),
    platforms: Array.isArray(row.platforms) ? (row.platforms as Platform[]) : [],
    forceUpdate: Number(row.force_update) === 1 ? 1 : 0,
  }),

  async check(db, _action, v) {
    if (await db.one('SELECT 1 FROM app_versions WHERE app_version = $1', [v.appVersion])) throw new HttpError(422, `App version ${v.appVersion} already exists`);
    if (await isPendingCreation(db, appVersionEntity.type, 'appVersion', v.appVersion)) throw new HttpError(422, `App version ${v.appVersion} is already pending approval`);
  },

  async apply(db, action, recordId, v, at) {
    if (action !== 'CREATE') throw new HttpError(422, 'App versions are only created');
    const row = await db.one<{ id: number }>('INSERT INTO app_versions (app_version, platforms, force_update, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id', [
      v.appVersion,
      v.platforms,
      v.forceUpdate,
      at,
    ]);
    return row!.id;
  },
};
