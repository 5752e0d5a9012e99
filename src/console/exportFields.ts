/** The export columns of a list screen: every column not marked `export: false`, in order. */
import type { ExportField } from '../api/contract';
import { exportTypeOf, type AnyListScreen } from './definitions';

export function exportFieldsOf(screen: Pick<AnyListScreen, 'columns'>): ExportField[] {
  return screen.columns
    .filter((c) => c.export !== false && c.kind !== 'image')
    .flatMap((c) =>
      c.panel
        ? c.panel.map((p) => ({ header: p.label, dataKey: p.key, type: exportTypeOf(p.kind) }))
        : [{ header: c.header, dataKey: c.key, type: exportTypeOf(c.kind) }],
    );
}
