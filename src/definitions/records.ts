/**
 * A record as a change request shows it: the record fields
 * the approval modal compares (`newRecord`/`originalRecord` on the wire: field name → `{ header,
 * type, value }`, spec 000 "Change request"). A record with a form is described by its form's fields
 * (`recordFromForm`): the label is the header, the field kind says how the value is shown, an option
 * list gives the option's label; a form field states only what differs (`approval`). A record without
 * a form (an app user, a provider, a transaction) declares its display fields directly.
 *
 * Each display kind is declared once here (`displayKinds`): its wire type and how a value is shown.
 * `describeRecord` is the one describer; the server gives it the look-ups that need the database
 * (a role's name by id, ...) by name, so this module stays headless.
 */
import type { FieldKind, RecordField } from '../api/contract';
import { listStatusText, statusOptions } from '../domain/recordStatus';
import type { FieldContext, FormField, Option } from './definitions';

/** Labels only the server can give: the value names another record (by id or code). */
export const lookupNames = ['branch', 'role', 'userLevel', 'provider'] as const;
export type LookupName = (typeof lookupNames)[number];

/** A column of an item list: `text` as sent, `rate` with its decimals, `status` a `disabled` flag (0 Active, else Inactive). */
export type ItemColumn =
  { readonly key: string; readonly header: string; readonly kind?: 'text' | 'status' } | { readonly key: string; readonly header: string; readonly kind: 'rate'; readonly decimals: number };

interface DisplayBase {
  /** The record field's name on the wire. */
  readonly name: string;
  readonly header: string;
  /** The value's key in the record's values (the request payload). */
  readonly key: string;
}

/**
 * One field of a record's display. A field whose value is absent (undefined) from the values is not
 * shown (e.g. an app user request's comment, only on hold and unhold).
 */
export type DisplayField =
  | (DisplayBase & { readonly kind: 'text' })
  /** The label of the value's option; the value itself when no option has it. */
  | (DisplayBase & { readonly kind: 'option'; readonly options: (values: Record<string, unknown>) => readonly Option[] })
  /** A label the server looks up by name (the value when it finds none). */
  | (DisplayBase & { readonly kind: 'lookup'; readonly lookup: LookupName })
  | (DisplayBase & { readonly kind: 'yesNo' })
  /** A list of values, one tag each. */
  | (DisplayBase & { readonly kind: 'tags' })
  | (DisplayBase & { readonly kind: 'image' })
  /** A list of `{ image, link }`. */
  | (DisplayBase & { readonly kind: 'images' })
  /** The `link` of each item of another list, one tag each. */
  | (DisplayBase & { readonly kind: 'links' })
  | (DisplayBase & { readonly kind: 'rate'; readonly decimals: number })
  /** 2 decimals with thousands separators after the currency: a fixed one or another value's. */
  | (DisplayBase & { readonly kind: 'amount'; readonly currency: { readonly fixed: string } | { readonly key: string } })
  /**
   * A list of rows with its own columns (a provider's currency rates): the approval modal shows it as
   * a table, each row paired with its old self by `rowKey` (default the first column), changed cells
   * as old → new. Sent as the rows, sorted by the row key, each holding the columns' keys.
   */
  | (DisplayBase & { readonly kind: 'itemList'; readonly columns: readonly ItemColumn[]; readonly rowKey?: string });

export type DisplayKind = DisplayField['kind'];

/** A record type as the change requests name it ('Bank', 'User', ...) and its display fields. */
export interface RecordDefinition {
  readonly type: string;
  readonly fields: readonly DisplayField[];
}

export function defineRecord(record: RecordDefinition): RecordDefinition {
  return record;
}

/** What a form field says about the approval display, only where it differs from the default. */
export interface ApprovalDisplay {
  /** The record field's name (default: the form field's key). */
  readonly name?: string;
  /** The header (default: the form field's label). */
  readonly header?: string;
  /** A select whose options come from a call: the label the server looks up. */
  readonly lookup?: LookupName;
  /** An `imageSlots` field: its links shown as a field of their own. */
  readonly links?: { readonly name: string; readonly header: string };
}

/** A form's Status radio: Active (0) / Not Active (1), shown as the record's `status`. */
export const statusRadio = { kind: 'radio', key: 'disabled', label: 'Status', options: statusOptions, approval: { name: 'status' } } as const;

/** A status display field of a record without a form (the `disabled` flag as the form's radio shows it). */
export const statusDisplay: DisplayField = { kind: 'option', name: 'status', key: 'disabled', header: 'Status', options: () => statusOptions };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFormField = FormField<any, any>;

/** A select's options for a record's own values (no `options` call data: the form's static lists). */
function ownOptions(field: Extract<AnyFormField, { kind: 'select' }>): (values: Record<string, unknown>) => readonly Option[] {
  return (values) => field.options({ values, options: undefined, mode: 'edit', initial: values } as FieldContext<unknown, unknown>);
}

/** The display fields of a form's fields: in order; a password and a derived (display-only) field are never shown. */
export function displayFieldsOf(fields: readonly AnyFormField[]): DisplayField[] {
  return fields.flatMap((f): DisplayField[] => {
    const a: ApprovalDisplay = (f as { approval?: ApprovalDisplay }).approval ?? {};
    const base = { name: a.name ?? f.key, header: a.header ?? f.label, key: f.key };
    switch (f.kind) {
      case 'password':
        return [];
      case 'checkboxGroups':
        return f.derived ? [] : [{ ...base, kind: 'tags' }];
      case 'select':
        return [a.lookup ? { ...base, kind: 'lookup', lookup: a.lookup } : { ...base, kind: 'option', options: ownOptions(f) }];
      case 'radio':
        return [{ ...base, kind: 'option', options: () => f.options }];
      case 'tags':
      case 'toggles':
        return [{ ...base, kind: 'tags' }];
      case 'switch':
        return [{ ...base, kind: 'yesNo' }];
      case 'image':
        return [{ ...base, kind: 'image' }];
      case 'imageSlots':
        return [{ ...base, kind: 'images' }, ...(a.links ? [{ name: a.links.name, header: a.links.header, key: f.key, kind: 'links' } as const] : [])];
      case 'rate':
        return [{ ...base, kind: 'rate', decimals: f.decimals }];
      case 'text':
      case 'date':
      case 'version':
        return [{ ...base, kind: 'text' }];
    }
  });
}

/** A record described by its form's fields. */
export function recordFromForm(type: string, fields: readonly AnyFormField[]): RecordDefinition {
  return { type, fields: displayFieldsOf(fields) };
}

const money = (n: unknown) => Number(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const textOf = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** An item list's row key: the declared one, else the first column's. */
export function rowKeyOf(field: Extract<DisplayField, { kind: 'itemList' }>): string {
  return field.rowKey ?? field.columns[0]?.key ?? 'id';
}

/** A cell of an item list as sent: a rate with its decimals, anything else as it is. */
function itemCell(column: ItemColumn, v: unknown): unknown {
  return column.kind === 'rate' ? Number(v).toFixed(column.decimals) : v;
}

/** A cell of an item list as the approval modal shows it. */
export function itemCellText(column: ItemColumn, v: unknown): string {
  if (column.kind === 'status') return listStatusText(Number(v) === 0 ? 0 : 1);
  return v === null || v === undefined || v === '' ? '-' : String(v);
}

/** Each display kind, declared once: the wire type and the value shown (a look-up is resolved by the caller). */
export const displayKinds: {
  readonly [K in DisplayKind]: { readonly type: FieldKind; readonly value: (field: Extract<DisplayField, { kind: K }>, v: unknown, values: Record<string, unknown>) => unknown };
} = {
  text: { type: 'STRING', value: (_f, v) => textOf(v) },
  option: { type: 'STRING', value: (f, v, values) => f.options(values).find((o) => o.value === v)?.label ?? textOf(v) },
  lookup: { type: 'STRING', value: (_f, v) => textOf(v) },
  yesNo: { type: 'STRING', value: (_f, v) => (Number(v) === 1 || v === true ? 'Yes' : 'No') },
  tags: { type: 'STRING_ARRAY', value: (_f, v) => listOf(v) },
  image: { type: 'IMAGE', value: (_f, v) => textOf(v) },
  images: { type: 'IMAGE_ARRAY', value: (_f, v) => listOf(v) },
  links: { type: 'STRING_ARRAY', value: (_f, v) => listOf(v).map((i) => textOf((i as { link?: unknown } | null)?.link)) },
  rate: { type: 'STRING', value: (f, v) => Number(v).toFixed(f.decimals) },
  amount: { type: 'STRING', value: (f, v, values) => `${'fixed' in f.currency ? f.currency.fixed : textOf(values[f.currency.key])} ${money(v)}` },
  itemList: {
    type: 'STRING',
    value: (f, v) => {
      const key = rowKeyOf(f);
      return [...listOf(v)]
        .map((r) => r as Record<string, unknown>)
        .sort((a, b) => textOf(a[key]).localeCompare(textOf(b[key])))
        .map((r) => Object.fromEntries(f.columns.map((c) => [c.key, itemCell(c, r[c.key])])));
    },
  },
};

/** A label the caller looks up (the server, in the database): undefined when it finds none. */
export type Lookup = (name: LookupName, value: unknown, values: Record<string, unknown>) => Promise<string | undefined>;

/** The record's display map of these values: each field of the record whose value is present, in order. */
export async function describeRecord(record: RecordDefinition, values: object, lookup: Lookup): Promise<Record<string, RecordField>> {
  const vals = values as Record<string, unknown>;
  const out: Record<string, RecordField> = {};
  for (const f of record.fields) {
    const v = vals[f.key];
    if (v === undefined) continue;
    const kind = displayKinds[f.kind] as { type: FieldKind; value: (field: DisplayField, v: unknown, values: Record<string, unknown>) => unknown };
    const value = f.kind === 'lookup' ? ((await lookup(f.lookup, v, vals)) ?? textOf(v)) : kind.value(f, v, vals);
    out[f.name] = { header: f.header, type: kind.type, value };
  }
  return out;
}

/** The display field of a record field, by the record's type and the field's name (undefined when not declared). */
export function displayFieldOf(records: readonly RecordDefinition[], type: string, name: string): DisplayField | undefined {
  return records.find((r) => r.type === type)?.fields.find((f) => f.name === name);
}
