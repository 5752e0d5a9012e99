/**
 * What a change request is about and what it changes, for the change-request panel and the
 * approval modal. Pure.
 */
import type { ChangeRequest, RecordField } from '../api/contract';

/** Fields never shown in the comparison. */
export const HIDDEN_FIELDS = new Set(['id', 'created_at', 'updated_at', 'locked']);

/**
 * The record fields that name a record, most telling first (Payload's `useAsTitle`): a user's
 * username, a role's name, a bank's code, a provider's code, an app version, an advertisement's
 * title, an app user's UID, else a name.
 */
export const TITLE_FIELDS = ['username', 'role_name', 'bank_code', 'provider', 'provider_bank_code', 'version', 'title', 'uid', 'name'] as const;

function text(field: RecordField | undefined): string | undefined {
  const v = field?.value;
  return (typeof v === 'string' && v.trim()) || (typeof v === 'number' ? String(v) : undefined) || undefined;
}

/** The record's display title: the first title field the new (else the original) record has, or '-'. */
export function recordTitleOf(request: Pick<ChangeRequest, 'newRecord' | 'originalRecord'>): string {
  for (const key of TITLE_FIELDS) {
    const t = text(request.newRecord[key]) ?? text(request.originalRecord?.[key] ?? undefined);
    if (t) return t;
  }
  return '-';
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The rows of an item list field (src/definitions/records.ts 'itemList'); none when the value is not a list of rows. */
export function itemRowsOf(field: RecordField | undefined): Record<string, unknown>[] {
  const v = field?.value;
  return Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];
}

export interface RowChange {
  readonly key: string;
  readonly next: Record<string, unknown> | undefined;
  readonly prev: Record<string, unknown> | undefined;
  /** added (only new), removed (only old), changed (a value differs) or same. */
  readonly kind: 'added' | 'removed' | 'changed' | 'same';
}

/**
 * Each row of the new list beside its old self (paired by the `rowKey` column, default the first of
 * `keys`), then the old rows the new list dropped.
 */
export function rowChanges(next: readonly Record<string, unknown>[], prev: readonly Record<string, unknown>[] | undefined, keys: readonly string[], rowKey: string | undefined = keys[0]): RowChange[] {
  const rowKeyOf = (r: Record<string, unknown>) => String((rowKey === undefined ? undefined : r[rowKey]) ?? JSON.stringify(r));
  const oldByKey = new Map((prev ?? []).map((r) => [rowKeyOf(r), r]));
  const out: RowChange[] = next.map((r) => {
    const key = rowKeyOf(r);
    const o = oldByKey.get(key);
    oldByKey.delete(key);
    const kind = prev === undefined ? 'same' : !o ? 'added' : keys.some((k) => !sameValue(o[k], r[k])) ? 'changed' : 'same';
    return { key, next: r, prev: o, kind };
  });
  if (prev !== undefined) for (const [key, o] of oldByKey) out.push({ key, next: undefined, prev: o, kind: 'removed' });
  return out;
}
