/**
 * The OpenAPI document tells the truth about requests: a body valid for an operation's request schema
 * (generated from the schema alone, scripts/schemaFuzz.ts) passes the call's own zod schema, the one the
 * server checks, but for the rules JSON Schema cannot state: To before From (a comparison of two
 * fields), a currency item's provider code equal to the request's, and an image's content (the
 * document gives a valid example; base64 in general is no PNG). And the calendar pattern of the date
 * fields accepts exactly the real days of its years.
 */
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { allCalls } from '../../src/api/index';
import { buildOpenApiDocument, calendarDayPattern } from '../../src/api/openapi';
import { arbitraryOf } from '../../scripts/schemaFuzz';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const UNSTATABLE = [/To cannot be (before|earlier than) From/, /Valid To cannot be before Valid From/, /must be the provider_bank_code of the request/, /Uploaded image is (not valid|invalid)/];

describe('the request schemas of the OpenAPI document', () => {
  const doc = buildOpenApiDocument(allCalls, { now: new Date(2026, 5, 1) }) as Json;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, multipleOfPrecision: 8 });
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');

  it.each(allCalls.map((c) => [c.path, c] as const))('%s: a body the document accepts, the server accepts', (path, call) => {
    const schema = doc.paths[`/api/${path}`].post.requestBody.content['application/json'].schema as Json;
    const valid = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')) as Json);
    const bodies = fc.sample(
      arbitraryOf(doc, schema).filter((v) => valid(v)),
      { numRuns: 25, seed: 11 },
    );
    expect(bodies.length).toBe(25);
    for (const body of bodies) {
      const parsed = call.request.safeParse(body);
      if (parsed.success) continue;
      for (const issue of parsed.error.issues)
        expect(
          UNSTATABLE.some((r) => r.test(issue.message)),
          `${issue.path.join('.')}: ${issue.message} for ${JSON.stringify(body).slice(0, 300)}`,
        ).toBe(true);
    }
  });

  it('states the periods, a reject reason and the export file link without a bearer token', () => {
    const request = (name: string) => doc.components.schemas[`${name}Request`] as Json;
    expect(request('DashboardGetTopBillers').properties.range.enum).toEqual([0, 7, 14, 30, 90, 365]);
    expect(request('DashboardTopUsers').properties.range.enum).toEqual([0, 1, 7, 14, 30, 90, 365]);
    expect(request('DashboardGetTopBillers').then.required).toEqual(['fromDate', 'toDate']);
    expect(request('DashboardRemittanceByYear').properties.year).toMatchObject({ minimum: 2000, maximum: 2026 });
    expect(request('ChangeRequestDecide').then.required).toEqual(['comment']);
    expect(request('ChangeRequestDecideMany').properties.changeRequestIDs.uniqueItems).toBe(true);
    expect(doc.paths['/api/export-file/{id}'].get.security).toEqual([]);
    expect(doc['x-date-bounds']).toMatchObject({ earliest: '2000-01-01', lastYear: 2026 });
  });

  it('links a list to the calls that take its ids', () => {
    const links = doc.paths['/api/bank/list'].post.responses['200'].links as Json;
    expect(links.bankGetForEdit).toEqual(expect.objectContaining({ operationId: 'bankGetForEdit', requestBody: { id: '$response.body#/data/banks/0/id' } }));
    expect(links.bankApprove.requestBody).toEqual({ changeRequestID: '$response.body#/data/changeRequests/0/changeRequestId' });
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const link of Object.values((item.post?.responses?.['200']?.links ?? {}) as Record<string, Json>)) {
        expect(
          Object.values(doc.paths as Record<string, Json>).some((p) => p.post?.operationId === link.operationId),
          `${path} -> ${link.operationId}`,
        ).toBe(true);
      }
    }
  });
});

describe('calendarDayPattern', () => {
  const day = new RegExp(`^${calendarDayPattern(2000, 2027)}$`);
  const real = (s: string) => {
    const [y, m, d] = s.split('-').map(Number);
    const t = new Date(Date.UTC(y, m - 1, d));
    return y >= 2000 && y <= 2027 && t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
  };

  it('accepts the real days of its years and nothing else', () => {
    for (const s of ['2000-02-29', '2024-02-29', '2026-12-31', '2027-12-31', '2026-04-30', '2000-01-01']) expect(day.test(s), s).toBe(true);
    for (const s of ['1999-12-31', '2028-01-01', '2025-02-29', '2100-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-1-01']) expect(day.test(s), s).toBe(false);
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/), fc.integer({ min: 1995, max: 2032 }), (s, y) => {
        const v = `${y}${s.slice(4)}`;
        expect(day.test(v)).toBe(real(v));
      }),
      { numRuns: 3000 },
    );
  });
});
