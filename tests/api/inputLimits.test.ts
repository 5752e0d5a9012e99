/**
 * Bad input at the edges: every date a call takes, in every call of the contract, is
 * refused with 400 naming the field when it lies outside 2000-01-01 .. today + 1 year (a valid-looking
 * `9999-12-31T23:59:59` gave 500 on five list calls). The calls and their date fields are found by
 * walking the contract, so a new call with a date field is covered without editing this file.
 */
import { addDays, format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { allCalls } from '../../src/api/index';
import { dateBoundsMessage, latestDay } from '../../src/domain/dates';
import { craftedJpeg, craftedPng } from '../fixtures/craftedImages';
import { startServer, type TestServer } from './harness';
import { sampleBody } from './samples';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

/** Names of request fields that hold a date, a date-time or a year (case matters: forceUpdate is no date). */
const DATE_FIELD = /^(date|year|from|to|valid_from|valid_to)$|_date$|Date$|_day$|Day$/;

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  let s: unknown = schema;
  for (let i = 0; i < 10 && s; i++) {
    const candidate = s as { shape?: Record<string, z.ZodType>; def?: { innerType?: unknown; in?: unknown; schema?: unknown } };
    if (candidate.shape) return candidate.shape;
    s = candidate.def?.innerType ?? candidate.def?.in ?? candidate.def?.schema;
  }
  throw new Error('no object shape');
}

/** Valid values of each shape a date field can have, in the order tried. */
const VALID_SHAPES: readonly (string | number)[] = ['2026-01-02T00:00:01', '2026-01-02T23:59:59', '2026-01-02T00:00:00', '2026-01-02', 2026];

interface DateField {
  path: string;
  field: string;
  /** A body the call accepts, with every date field set to a valid value. */
  body: Record<string, unknown>;
  valid: string | number;
}

/** Every (call, date field) of the contract, each with an accepted body to break. */
function dateFields(): DateField[] {
  const out: DateField[] = [];
  for (const call of allCalls) {
    const fields = Object.keys(shapeOf(call.request)).filter((k) => DATE_FIELD.test(k));
    if (fields.length === 0) continue;
    const body = sampleBody(call.path) as Record<string, unknown>;
    // a dashboard period reads its dates only for a custom range (0)
    if (typeof body.range === 'number' && fields.includes('fromDate')) body.range = 0;
    // the sample's own dates where it has them; the missing ones (a period's '') get the first shape that fits
    const missing = fields.filter((f) => body[f] === undefined || body[f] === '');
    const valids: Record<string, string | number> = Object.fromEntries(fields.filter((f) => !missing.includes(f)).map((f) => [f, body[f] as string | number]));
    if (missing.length > 0) {
      const fits = VALID_SHAPES.find((v) => call.request.safeParse({ ...body, ...Object.fromEntries(missing.map((f) => [f, v])) }).success);
      if (fits === undefined) throw new Error(`${call.path}: no valid value found for ${missing.join(', ')} (sample: ${JSON.stringify(body)})`);
      for (const f of missing) valids[f] = fits;
    }
    Object.assign(body, valids);
    expect(call.request.safeParse(body).success, `${call.path}: the base body is accepted`).toBe(true);
    for (const field of fields) out.push({ path: call.path, field, body, valid: valids[field]! });
  }
  return out;
}

/** The valid value moved to another day (keeping its time part), or to that day's year for a year. */
function onDay(valid: string | number, day: string): string | number {
  return typeof valid === 'number' ? Number(day.slice(0, 4)) : `${day}${valid.slice(10)}`;
}

describe('dates outside 2000-01-01 .. today + 1 year', () => {
  const fields = dateFields();

  it('the walk finds the date fields of the contract (list filters, reports, dashboards, advertisements)', () => {
    const paths = new Set(fields.map((f) => f.path));
    expect(paths.size).toBeGreaterThanOrEqual(20);
    for (const p of [
      'dashboard/CeftList',
      'Transaction/get-ceftTransaction',
      'report/get-activity-report',
      'report/get-settlement-report',
      'dashboard/TopUsers',
      'advertisement/create',
      'dashboard/remittanceByYear',
    ]) {
      expect(paths, p).toContain(p);
    }
  });

  const tomorrowPlusYear = format(addDays(new Date(`${latestDay()}T12:00:00`), 1), 'yyyy-MM-dd');
  const latestYear = Number(latestDay().slice(0, 4));
  /** What is refused, as a day (dates and date-times keep their time part) and as a year. */
  const edges: readonly [string, string, number][] = [
    ['the last day of the calendar', '9999-12-31', 9999],
    ['the day before 2000', '1999-12-31', 1999],
    ['the day after today + 1 year', tomorrowPlusYear, latestYear + 1],
  ];

  for (const [what, day, year] of edges) {
    it(`every date field of every call refuses ${what} (${day}) with 400 naming the field`, async () => {
      const failures: string[] = [];
      for (const f of fields) {
        const value = typeof f.valid === 'number' ? year : onDay(f.valid, day);
        const reply = await server.call(f.path, { ...f.body, [f.field]: value }, admin);
        const expected = `${f.field}: ${dateBoundsMessage()}`;
        if (reply.statusCode !== 400 || !String(reply.data?.message).includes(expected)) {
          failures.push(`${f.path} ${f.field}=${JSON.stringify(value)}: ${reply.statusCode} ${JSON.stringify(reply.data).slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('the bounds themselves are accepted: 2000-01-01 and today + 1 year (the list calls answer 200)', async () => {
    const failures: string[] = [];
    for (const f of fields.filter((x) => /List$|Transactions?$|report$/.test(x.path) && x.field !== 'to_date' && x.field !== 'to')) {
      const reply = await server.call(f.path, { ...f.body, [f.field]: onDay(f.valid, '2000-01-01') }, admin);
      if (reply.statusCode !== 200) failures.push(`${f.path} ${f.field}: ${reply.statusCode} ${JSON.stringify(reply.data).slice(0, 200)}`);
    }
    for (const f of fields.filter((x) => x.field === 'to_date' || x.field === 'to')) {
      const reply = await server.call(f.path, { ...f.body, [f.field]: onDay(f.valid, latestDay()) }, admin);
      if (reply.statusCode !== 200) failures.push(`${f.path} ${f.field}: ${reply.statusCode} ${JSON.stringify(reply.data).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('uploaded images: the pixel budget (4096 x 4096, 16 megapixels), from the header, before anything is stored', () => {
  const budget = (w: number, h: number) => `The image is ${w} x ${h} pixels; at most 4096 x 4096 and 16 megapixels are accepted`;
  const counts = async () => ({
    images: Number((await server.db.one<{ n: string }>('SELECT count(*) AS n FROM images'))!.n),
    requests: Number((await server.db.one<{ n: string }>('SELECT count(*) AS n FROM change_requests'))!.n),
  });

  it('a bank logo claiming 5000 x 4000 (PNG) or 60000 x 60000 (JPEG) gets 400 naming the field and why; nothing is stored', async () => {
    const maker = await server.login('maker');
    const before = await counts();
    const cases: [Buffer, string][] = [
      [craftedPng(5000, 4000), budget(5000, 4000)],
      [craftedJpeg(60000, 60000), budget(60000, 60000)],
      [craftedPng(4097, 16), budget(4097, 16)],
    ];
    for (const [bytes, message] of cases) {
      const reply = await server.call('bank/create', { ...(sampleBody('bank/create') as object), bank_code: 'BOMB1', logo: bytes.toString('base64') }, maker);
      expect(reply.statusCode).toBe(400);
      expect(reply.data.message).toBe(`logo: ${message}`);
      const edit = await server.call('bank/edit', { ...(sampleBody('bank/edit') as object), logo: bytes.toString('base64') }, maker);
      expect(edit.statusCode).toBe(400);
      expect(edit.data.message).toBe(`logo: ${message}`);
    }
    expect(await counts()).toEqual(before);
  });

  it('an advertisement image over the budget gets 400 naming the slot; nothing is stored', async () => {
    const maker = await server.login('maker');
    const before = await counts();
    const body = sampleBody('advertisement/create') as { images: { image: string; link: string }[] };
    body.images = [body.images[0]!, { image: craftedPng(8000, 8000).toString('base64'), link: 'https://www.remitops.lk/offers' }];
    const reply = await server.call('advertisement/create', body, maker);
    expect(reply.statusCode).toBe(400);
    expect(reply.data.message).toBe(`images.1.image: ${budget(8000, 8000)}`);
    expect(await counts()).toEqual(before);
  });

  it('a logo within the budget (4096 x 4096 by its header) is accepted', async () => {
    const maker = await server.login('maker');
    const reply = await server.call('bank/create', { ...(sampleBody('bank/create') as object), bank_code: 'EDGE1', logo: craftedPng(4096, 4096).toString('base64') }, maker);
    expect(reply.statusCode).toBe(200);
  });
});
