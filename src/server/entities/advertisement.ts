/** Advertisements as a maker-checker entity. */
import { advertisementRecord } from '../../../screens/advertisements';
import { ALL_COUNTRIES } from '../../api/advertisements';
import { type EntityAdapter } from '../changeRequests';
import type { Row } from '../db/db';
import { HttpError } from '../http/httpError';
import { deleteImages } from './images';

/** What an advertisement request carries: days 'yyyy-MM-dd', images as stored paths with their links. */
export interface AdvertisementPayload {
  title: string;
  countries: string[];
  valid_from: string;
  valid_to: string;
  images: { image: string; link: string }[];
  disabled: 0 | 1;
}

/**
 * A `date` column as 'yyyy-MM-dd'. The pg driver reads a date as local midnight, PGlite as UTC
 * midnight; a UTC midnight is read in UTC, anything else in local time, so both give the stored day.
 */
export function dayText(v: unknown): string {
  if (v instanceof Date) {
    const utc = v.getUTCHours() === 0 && v.getUTCMinutes() === 0 && v.getUTCSeconds() === 0;
    const pad = (n: number) => String(n).padStart(2, '0');
    const [y, m, d] = utc ? [v.getUTCFullYear(), v.getUTCMonth(), v.getUTCDate()] : [v.getFullYear(), v.getMonth(), v.getDate()];
    return `${y}-${pad(m + 1)}-${pad(d)}`;
  }
  return String(v).slice(0, 10);
}

export function imagesOf(value: unknown): { image: string; link: string }[] {
  return Array.isArray(value) ? value.map((i) => ({ image: String((i as { image?: unknown }).image ?? ''), link: String((i as { link?: unknown }).link ?? '') })) : [];
}

export const advertisementEntity: EntityAdapter<AdvertisementPayload> = {
  type: advertisementRecord.type,
  record: advertisementRecord,
  table: 'advertisements',

  /** An advertisement request that will not be applied: its uploaded images are deleted unless the advertisement uses them. */
  async onRejected(db, request) {
    const kept = request.record_id === null ? [] : imagesOf((await db.one<{ images: unknown }>('SELECT images FROM advertisements WHERE id = $1', [request.record_id]))?.images).map((i) => i.image);
    await deleteImages(
      db,
      imagesOf(request.payload.images)
        .map((i) => i.image)
        .filter((p) => !kept.includes(p)),
    );
  },

  fromRow: (row: Row) => ({
    title: String(row.title),
    countries: Array.isArray(row.countries) ? row.countries.map(String) : [],
    valid_from: dayText(row.valid_from),
    valid_to: dayText(row.valid_to),
    images: imagesOf(row.images),
    disabled: Number(row.disabled) === 0 ? 0 : 1,
  }),

  async check(db, _action, v) {
    const wanted = v.countries.filter((c) => c !== ALL_COUNTRIES);
    if (wanted.length === 0) return;
    const known = new Set((await db.query<{ code: string }>('SELECT code FROM countries WHERE code = ANY($1::text[])', [`{${wanted.join(',')}}`])).map((r) => r.code));
    const unknown = wanted.filter((c) => !known.has(c));
    if (unknown.length) throw new HttpError(422, `Unknown country: ${unknown.join(', ')}`);
  },

  async apply(db, action, recordId, v, at) {
    if (action === 'CREATE') {
      const row = await db.one<{ id: number }>(
        `INSERT INTO advertisements (title, countries, valid_from, valid_to, images, disabled, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
        [v.title, v.countries, v.valid_from, v.valid_to, v.images, v.disabled, at],
      );
      return row!.id;
    }
    if (action === 'DELETE') {
      await db.query('UPDATE advertisements SET disabled = 1 WHERE id = $1', [recordId]);
      return recordId!;
    }
    await db.query('UPDATE advertisements SET title = $2, countries = $3, valid_from = $4, valid_to = $5, images = $6, disabled = $7 WHERE id = $1', [
      recordId,
      v.title,
      v.countries,
      v.valid_from,
      v.valid_to,
      v.images,
      v.disabled,
    ]);
    return recordId!;
  },
};
