/**
 * The list runtime's pure parts: pinned columns first and their offsets, the column
 * chooser's arrangement and stored prefs, sort and page read from the URL, and the reason a failed
 * list load gives.
 */
import { describe, expect, it } from 'vitest';
import { columnLayout, pinOffsets, pinOffsetsFromRight, rowKeys } from '../../src/console/views/DataTable';
import { arrangeColumns, NO_PREFS, parsePrefs } from '../../src/console/views/ColumnChooser';
import { appliedFilters, listFailureReason, matchingOf, pageFromUrl, sortFromUrl } from '../../src/console/listController';
import { screens } from '../../screens';
import type { AnyListScreen } from '../../src/definitions/definitions';

const cols = ['id', 'name', 'email', 'username', 'status'].map((key) => ({ key, header: key }));

describe('pinned columns', () => {
  it('stay in their places: pinning never reorders, the action columns go before the column named, else last', () => {
    const keys = cols.map((c) => c.key);
    expect(arrangeColumns(cols, ['id', 'username'], NO_PREFS).map((c) => c.key)).toEqual(keys);
    expect(columnLayout(keys, [], 'action')).toEqual([...keys, 'action']);
    expect(columnLayout(keys, ['images'], 'action', 'status')).toEqual(['id', 'name', 'email', 'username', 'images', 'action', 'status']);
    expect(columnLayout(keys, ['images'], undefined, 'missing')).toEqual([...keys, 'images']);
  });
  it('sit at the added widths of the pinned columns before them, and after them on the right', () => {
    expect(pinOffsets([80, 150.5, 60])).toEqual([0, 80, 230.5]);
    expect(pinOffsetsFromRight([80, 150.5, 60])).toEqual([210.5, 60, 0]);
    expect(pinOffsetsFromRight([80, 150.5], 100)).toEqual([250.5, 100]);
  });
  it('every list screen declares identifying columns that are its columns', () => {
    const lists = screens.filter((s): s is AnyListScreen => s.kind === 'list');
    expect(lists.length).toBeGreaterThan(10);
    for (const s of lists) {
      expect(s.pinnedColumns?.length, s.id).toBeGreaterThan(0);
      for (const k of s.pinnedColumns ?? [])
        expect(
          s.columns.some((c) => c.key === k),
          `${s.id}.${k}`,
        ).toBe(true);
    }
  });
});

describe('the column chooser', () => {
  it('leaves hidden columns out, never a pinned one, and follows the chosen order around the pinned ones', () => {
    const prefs = { hidden: ['email', 'id'], order: ['status', 'name'], widths: {} };
    expect(arrangeColumns(cols, ['id'], prefs).map((c) => c.key)).toEqual(['id', 'status', 'name', 'username']);
    expect(arrangeColumns(cols, ['username'], prefs).map((c) => c.key)).toEqual(['status', 'name', 'username']);
    expect(arrangeColumns(cols, [], NO_PREFS).map((c) => c.key)).toEqual(cols.map((c) => c.key));
  });
  it('reads stored prefs defensively', () => {
    expect(parsePrefs(null)).toEqual(NO_PREFS);
    expect(parsePrefs('not json')).toEqual(NO_PREFS);
    expect(parsePrefs(JSON.stringify({ hidden: ['a', 3], order: 'x', widths: { a: 120.4, b: 5, c: 'wide' } }))).toEqual({ hidden: ['a'], order: [], widths: { a: 120 } });
  });
});

describe('sort, page and fetch count', () => {
  const users = screens.find((s) => s.id === 'users') as AnyListScreen;
  it('reads the sort of a sortable column and the page from the URL', () => {
    expect(sortFromUrl('username.desc', users.columns)).toEqual({ key: 'username', desc: true });
    expect(sortFromUrl('id.asc', users.columns)).toEqual({ key: 'id', desc: false });
    expect(sortFromUrl('signin.asc', users.columns)).toBeUndefined(); // not sortable
    expect(sortFromUrl('nope.asc', users.columns)).toBeUndefined();
    expect(sortFromUrl(5, users.columns)).toBeUndefined();
    expect(pageFromUrl('3')).toBe(2);
    expect(pageFromUrl(undefined)).toBe(0);
    expect(pageFromUrl('-2')).toBe(0);
    expect(pageFromUrl('x')).toBe(0);
  });
  it('takes a remembered fetch count when the URL has none, the URL one when it has', () => {
    expect(appliedFilters(users, {}, { fetchCount: 50 }).fetchCount).toBe(50);
    expect(appliedFilters(users, { fetchCount: '25' }, { fetchCount: 50 }).fetchCount).toBe(25);
    expect(appliedFilters(users, {}).fetchCount).toBe(10);
  });
});

describe('a failed list load', () => {
  it('says why: the server message, else what the status means', () => {
    expect(listFailureReason(500, 'Database unavailable')).toBe('Database unavailable');
    expect(listFailureReason(502)).toBe('the server could not be reached');
    expect(listFailureReason(403)).toBe('you do not have permission to see this list');
    expect(listFailureReason(500)).toBe('the server answered with an error (500)');
  });
});

describe('a list cut by its fetch count', () => {
  it("reads the reply's top-level matching only when it is a count", () => {
    expect(matchingOf({ data: {}, matching: 165 })).toBe(165);
    expect(matchingOf({ data: {}, matching: 0 })).toBe(0);
    // a backend that speaks only the documented reply, or sends something else under the name
    expect(matchingOf({ data: {} })).toBeUndefined();
    expect(matchingOf({ data: {}, matching: '165' })).toBeUndefined();
    expect(matchingOf({ data: {}, matching: -1 })).toBeUndefined();
    expect(matchingOf({ data: {}, matching: 1.5 })).toBeUndefined();
    expect(matchingOf(undefined)).toBeUndefined();
  });
});

describe("a table's row keys", () => {
  it("are the rows' identifying values, so what a row holds stays with its record when the rows change", () => {
    const before = rowKeys([{ id: 5 }, { id: 7 }], 'id');
    const after = rowKeys([{ id: 7 }, { id: 9 }], 'id');
    expect(after[0]).toBe(before[1]);
    expect(new Set([...before, ...after]).size).toBe(3);
    expect(rowKeys([{ kycId: 'K1' }, { kycId: 'K2' }], 'kycId')).toEqual(['k:K1', 'k:K2']);
  });
  it('fall back to the position for a row without a value or with one repeated on the page', () => {
    expect(rowKeys([{ id: 1 }, { id: 1 }, { name: 'x' }, { id: 2 }], 'id')).toEqual(['#0', '#1', '#2', 'k:2']);
  });
});
