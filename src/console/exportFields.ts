/** The export columns of a list screen: every column not marked `export: false`, in order. */
import type { ExportField } from '../api/contract';
import { exportTypeOf, type AnyListScreen } from './definitions';

export function exportFieldsOf(screen: Pick<AnyListScreen, 'columns'>): ExportField[] {
  return screen.columns
    .filter((c) => c.export !== false && c.kind !== 'image')
    .map((c) => ({ header: c.header, dataKey: c.key, type: exportTypeOf(c.kind) }));
}
