/**
 * The cell kinds of list columns, each declared once: its alignment, how it sorts, the export type
 * it maps to and its text in the generated screen specs. The renderer of each kind is the console's
 * `cellRenderers` (src/console/views/cells.tsx), a map that must name every kind of this registry.
 */
import type { ExportField } from '../api/contract';
import type { CellKind } from './definitions';

export interface CellKindDef {
  /** Numbers sit right in the table (and sort high to low on the first click). */
  readonly align: 'left' | 'right';
  /** The sort key: the value as a number, a date as epoch ms, else lower-case text. */
  readonly sortAs: 'number' | 'time' | 'text';
  /** The type of the export column. */
  readonly exportType: ExportField['type'];
  /** How the generated spec describes the cell (the Format column). */
  readonly spec: string;
  /** A DOUBLE's decimals other than the default 2, on the screen and in every export format. */
  readonly decimals?: number;
}

export const cellKinds = {
  text: { align: 'left', sortAs: 'text', exportType: 'STRING', spec: "as text; '-' when empty" },
  integer: { align: 'right', sortAs: 'number', exportType: 'INTEGER', spec: "whole number, right-aligned; '-' when empty" },
  amount: { align: 'right', sortAs: 'number', exportType: 'DOUBLE', spec: "2 decimals with thousands separators, right-aligned; '-' when empty" },
  datetime: { align: 'left', sortAs: 'time', exportType: 'DATE', spec: "yyyy-MM-dd HH:mm:ss, local time; '-' when empty or unreadable" },
  status: { align: 'left', sortAs: 'text', exportType: 'STRING', spec: 'coloured tag (Active green, anything else red)' },
  approval: { align: 'left', sortAs: 'text', exportType: 'STRING', spec: 'coloured tag (APPROVED green, PENDING yellow, anything else red)' },
  // exchange rates: the 4 decimals the data has (85.5057), in the table, its panels and every export
  rate: { align: 'right', sortAs: 'number', exportType: 'DOUBLE', decimals: 4, spec: "4 decimals with thousands separators, right-aligned; '-' when empty" },
  paymentStatus: { align: 'left', sortAs: 'text', exportType: 'STRING', spec: "coloured tag (SUCCESS green, PENDING and HOLD yellow, REFUNDED blue, anything else red); '-' when empty" },
  tags: { align: 'left', sortAs: 'text', exportType: 'STRING', spec: 'one tag per item' },
  image: { align: 'left', sortAs: 'text', exportType: 'STRING', spec: 'image (a placeholder when missing)' },
  yesNo: { align: 'left', sortAs: 'text', exportType: 'BOOLEAN', spec: 'Yes or No' },
  list: { align: 'left', sortAs: 'text', exportType: 'STRING', spec: 'expandable list of items; exported as one text line per item' },
} as const satisfies Record<CellKind, CellKindDef>;

export function isCellKind(kind: unknown): kind is CellKind {
  return typeof kind === 'string' && Object.hasOwn(cellKinds, kind);
}

/** A kind's declaration; no kind (or one this registry does not know) is text. */
export function cellKindOf(kind: string | undefined): CellKindDef {
  return isCellKind(kind) ? cellKinds[kind] : cellKinds.text;
}

/** The export type a cell kind maps to. */
export function exportTypeOf(kind: CellKind | undefined): ExportField['type'] {
  return cellKindOf(kind).exportType;
}

/**
 * The export column of a cell: header, key, type, and the decimals of a DOUBLE whose kind shows other
 * than the default 2 (so that every format writes the decimals the screen shows).
 */
export function exportFieldOf(header: string, dataKey: string, kind: CellKind | undefined): ExportField {
  const { exportType: type, decimals } = cellKindOf(kind) as CellKindDef;
  return decimals ? { header, dataKey, type, decimals } : { header, dataKey, type };
}
