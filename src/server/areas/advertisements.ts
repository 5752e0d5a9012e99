/** Advertisements: list, form data, maker-checker create/edit with images stored in the database. */
import {
  ALL_COUNTRIES,
  advertisementApprove,
  advertisementCreate,
  advertisementEdit,
  advertisementGetForEdit,
  advertisementInitialData,
  advertisementList,
  advertisementMessages,
  VALID_FROM_TIME,
  VALID_TO_TIME,
  type AdvertisementRow,
} from '../../api/advertisements';
import { advertisementImageRule } from '../../api/imageUpload';
import { decide, pendingChangeRequests, submit } from '../changeRequests';
import { advertisementEntity, dayText, imagesOf, type AdvertisementPayload } from '../entities/advertisement';
import { imagePathFor } from '../entities/images';
import type { Db } from '../db/db';
import { handle, type Ctx } from '../http/handle';
import { notFound } from '../http/httpError';
import { listStatusText } from '../../domain/recordStatus';

interface AdvertisementTableRow {
  id: number;
  title: string;
  countries: unknown;
  valid_from: unknown;
  valid_to: unknown;
  images: unknown;
  disabled: number;
  locked: number;
  created_at: Date;
  updated_at: Date;
}

const advertisementColumns = 'id, title, countries, valid_from, valid_to, images, disabled, locked, created_at, updated_at';

function toAdvertisementRow(r: AdvertisementTableRow): AdvertisementRow {
  return {
    id: r.id,
    title: r.title,
    countries: Array.isArray(r.countries) ? r.countries.map(String) : [],
    valid_from: `${dayText(r.valid_from)}${VALID_FROM_TIME}`,
    valid_to: `${dayText(r.valid_to)}${VALID_TO_TIME}`,
    images: imagesOf(r.images),
    disabled: r.disabled,
    status: listStatusText(r.disabled),
    locked: r.locked,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

async function findAdvertisement(db: Db, id: number): Promise<AdvertisementTableRow> {
  const row = await db.one<AdvertisementTableRow>(`SELECT ${advertisementColumns} FROM advertisements WHERE id = $1`, [id]);
  if (!row) throw notFound('Advertisement');
  return row;
}

interface AdvertisementBody {
  title: string;
  countries: string[];
  valid_from: string;
  valid_to: string;
  images: { image: string; link: string }[];
  disabled: 0 | 1;
}

/** Stores new images (or keeps the record's own) and sends the request, in one transaction. */
async function requestAdvertisement(ctx: Ctx, body: AdvertisementBody, recordId?: number) {
  return ctx.tx(async (t) => {
    const keep = recordId === undefined ? [] : imagesOf((await findAdvertisement(t.db, recordId)).images).map((i) => i.image);
    const images: AdvertisementPayload['images'] = [];
    for (const [i, slot] of body.images.entries()) {
      const field = { field: `images.${i}.image`, rule: advertisementImageRule, invalidMessage: advertisementMessages.invalidImage, keep };
      images.push({ image: await imagePathFor(t.db, slot.image, 'advertisements', `ad-${i + 1}`, field, t.clock()), link: slot.link });
    }
    const payload: AdvertisementPayload = {
      title: body.title,
      countries: body.countries,
      valid_from: body.valid_from.slice(0, 10),
      valid_to: body.valid_to.slice(0, 10),
      images,
      disabled: body.disabled,
    };
    return submit(t, advertisementEntity, recordId === undefined ? { action: 'CREATE', payload } : { action: 'EDIT', recordId, payload });
  });
}

export const advertisementHandlers = [
  handle(advertisementList, async (ctx) => {
    const rows = await ctx.db.query<AdvertisementTableRow>(`SELECT ${advertisementColumns} FROM advertisements ORDER BY id`);
    return { data: { advertisements: rows.map(toAdvertisementRow), changeRequests: await pendingChangeRequests(ctx.db, advertisementEntity) } };
  }),

  handle(advertisementInitialData, async (ctx) => {
    const countries = await ctx.db.query<{ code: string; name: string }>('SELECT code, name FROM countries ORDER BY name');
    return { data: { countries: [{ code: ALL_COUNTRIES, name: 'All Countries' }, ...countries] } };
  }),

  handle(
    advertisementCreate,
    async (ctx, body) => {
      const changeRequestId = await requestAdvertisement(ctx, body);
      return { data: { message: 'Advertisement sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: advertisementEntity.type, approve: advertisementApprove } },
  ),

  handle(advertisementGetForEdit, async (ctx, { id }) => ({ data: { advertisement: toAdvertisementRow(await findAdvertisement(ctx.db, id)) } })),

  handle(
    advertisementEdit,
    async (ctx, { id, ...body }) => {
      const changeRequestId = await requestAdvertisement(ctx, body, id);
      return { data: { message: 'Advertisement sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: advertisementEntity.type, approve: advertisementApprove } },
  ),

  handle(advertisementApprove, async (ctx, decision) => ({ data: await decide(ctx, advertisementEntity, decision) }), { decides: [advertisementEntity.type] }),
];
