/** The export columns of a list screen: every column not marked `export: false`, in order. */
import { z } from 'zod';
import { exportField, type ExportField } from '../api/contract';
import type { AnyListScreen } from './definitions';
import { exportFieldOf } from './cellKinds';

export function exportFieldsOf(screen: Pick<AnyListScreen, 'columns'>): ExportField[] {
  return screen.columns
    .filter((c) => c.export !== false && c.kind !== 'image')
    .flatMap((c) => (c.panel ? c.panel.map((p) => exportFieldOf(p.label, p.key, p.kind)) : [exportFieldOf(c.header, c.key, c.kind)]));
}

const replyFields = z.array(exportField).min(1);

/**
 * The columns of an export (spec 001 §7, 002 §7: "exports are built from the returned fields"): the
 * reply's `fields` (header, dataKey, type) when it carries a valid non-empty list, so the console
 * exports what any server speaking the contract sends; else the screen's own columns.
 */
export function exportFieldsFor(screen: Pick<AnyListScreen, 'columns'>, data: unknown): ExportField[] {
  const sent = typeof data === 'object' && data !== null ? replyFields.safeParse((data as { fields?: unknown }).fields) : undefined;
  return sent?.success ? sent.data : exportFieldsOf(screen);
}
