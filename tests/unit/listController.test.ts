/**
 * The list controller's request building: for a few screens, the
 * filters of a URL become the exact request body the list sends, through a fake request helper that
 * records each call; "all matching rows" sends the same body with fetch count All; a failed load
 * becomes a ListLoadError with the reason, and the whole reply (envelope fields and data) comes back.
 */
import { describe, expect, it } from 'vitest';
import { screens } from '../../screens';
import type { AnyListScreen } from '../../src/definitions/definitions';
import type { CallContract } from '../../src/api/contract';
import { ALL_ROWS, allMatchingFilters, appliedFilters, durationOf, fetchList, ListLoadError, listTabOf, type RequestHelper } from '../../src/console/listController';

function list(id: string): AnyListScreen {
  const s = screens.find((x) => x.id === id);
  if (!s || s.kind !== 'list') throw new Error(`no list screen ${id}`);
  return s;
}

/** A request helper that records each call and answers with `reply` (or the status given). */
function fakeRequests(reply: { statusCode: number; data: unknown; [top: string]: unknown }) {
  const sent: { path: string; body: unknown; streamed: boolean }[] = [];
  const request: RequestHelper = async <C extends CallContract>(contract: C, body: unknown, init?: { onPartial?: (p: Record<string, unknown>) => void }) => {
    sent.push({ path: contract.path, body: structuredClone(body), streamed: !!init?.onPartial });
    return (reply.statusCode === 200 ? { ...reply, ok: true } : { ok: false, statusCode: reply.statusCode, data: reply.data }) as never;
  };
  return { request, sent };
}

/** What the list sends for this URL: the applied filters through the (tab's) source. */
async function sentFor(id: string, search: Record<string, unknown>, all = false) {
  const screen = list(id);
  const { source } = listTabOf(screen, search.tab);
  const applied = appliedFilters(screen, search);
  const fake = fakeRequests({ statusCode: 200, data: {} });
  await fetchList(fake.request, source, all ? allMatchingFilters(screen, applied) : applied);
  expect(fake.sent).toHaveLength(1);
  return fake.sent[0]!;
}

describe('the list controller builds each list request', () => {
  it('users: the search text as typed and the fetch count as a number', async () => {
    expect(await sentFor('users', { data: ' ann ', fetchCount: '100' })).toEqual({ path: 'user/list', body: { data: ' ann ', fetchCount: 100 }, streamed: false });
  });

  it('users, every matching row: the same body with fetch count All', async () => {
    expect(ALL_ROWS).toBe(99999999);
    expect((await sentFor('users', { data: 'ann', fetchCount: '100' }, true)).body).toEqual({ data: 'ann', fetchCount: 99999999 });
  });

  it('roles (no filters): an empty body', async () => {
    expect(await sentFor('roles', {})).toEqual({ path: 'role/list', body: {}, streamed: false });
  });

  it('auditor CEFT: the tab picks the call; the range starts at second 01 and ends at second 00; status empty', async () => {
    const search = { from_date: '2026-01-01T00:00', to_date: '2026-01-31T23:59', country_code: 'LK', fetchCount: '500', data: 'TX1' };
    const body = { from_date: '2026-01-01T00:00:01', to_date: '2026-01-31T23:59:00', country_code: 'LK', data: 'TX1', fetchCount: 500, status: '' };
    expect(await sentFor('transactions.ceft.audit', search)).toEqual({ path: 'dashboard/CeftList', body, streamed: false });
    expect(await sentFor('transactions.ceft.audit', { ...search, tab: 'refunded' })).toEqual({ path: 'dashboard/CeftRefundedList', body, streamed: false });
    // a tab the screen does not have falls back to the first
    expect((await sentFor('transactions.ceft.audit', { ...search, tab: 'nope' })).path).toBe('dashboard/CeftList');
  });

  it('activity logs: from/to and the username', async () => {
    expect(await sentFor('activityLogs', { from: '2026-02-01T00:00', to: '2026-02-02T00:00', username: 'maker1', fetchCount: '1000' })).toEqual({
      path: 'report/get-activity-report',
      body: { from: '2026-02-01T00:00:01', to: '2026-02-02T00:00:00', fetchCount: 1000, username: 'maker1' },
      streamed: false,
    });
  });

  it('segregation of duties: the select values converted by the request (percent to a fraction, days to a number)', async () => {
    expect((await sentFor('segregationOfDuties', { threshold: '5', days: '30' })).body).toEqual({ threshold: 0.5, days: 30 });
  });

  it('a fetch count outside the URL is the default, and a remembered one replaces it', async () => {
    const screen = list('users');
    const fake = fakeRequests({ statusCode: 200, data: {} });
    await fetchList(fake.request, screen.source, appliedFilters(screen, {}, { fetchCount: 1000 }));
    expect(fake.sent[0]!.body).toEqual({ data: '', fetchCount: 1000 });
  });
});

describe('a list load', () => {
  it('hands back the whole reply and streams when asked', async () => {
    const screen = list('users');
    const fake = fakeRequests({ statusCode: 200, data: { users: [{ id: 1 }] }, matching: 7 });
    const whole = await fetchList(fake.request, screen.source, appliedFilters(screen, { fetchCount: '100' }), () => {});
    expect(whole).toEqual({ data: { users: [{ id: 1 }] }, matching: 7 });
    expect(fake.sent[0]!.streamed).toBe(true);
  });

  it('that fails throws a ListLoadError with the status and the server message, else what the status means', async () => {
    const screen = list('users');
    const filters = appliedFilters(screen, { fetchCount: '100' });
    const withMessage = fetchList(fakeRequests({ statusCode: 400, data: { message: 'Bad filter' } }).request, screen.source, filters);
    await expect(withMessage).rejects.toBeInstanceOf(ListLoadError);
    await expect(withMessage).rejects.toMatchObject({ statusCode: 400, message: 'Bad filter' });
    await expect(fetchList(fakeRequests({ statusCode: 403, data: undefined }).request, screen.source, filters)).rejects.toMatchObject({
      statusCode: 403,
      message: 'you do not have permission to see this list',
    });
  });
});

describe('the exports’ Duration line', () => {
  const screen = (id: string) => screens.find((s): s is AnyListScreen => s.kind === 'list' && s.id === id)!;

  it('is the range as it was sent, which is what the date fields show: From at second 01, To at second 00', () => {
    expect(durationOf(screen('activityLogs'), { from: '2026-11-20T00:00:00', to: '2026-11-20T23:59:59' })).toBe('2026-11-20 00:00:01 to 2026-11-20 23:59:00');
    expect(durationOf(screen('activityLogs'), { from: '2026-11-20T10:30:20', to: '2026-11-20T10:30:40' })).toBe('2026-11-20 10:30:01 to 2026-11-20 10:30:59');
  });
});
