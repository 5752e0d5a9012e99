/** Cell renderers by column kind (cellRenderers). Text is always rendered as text (React escapes it), never as HTML. */
import { useState, type ReactNode } from 'react';
import type { CellKind, PanelField } from '../../definitions/definitions';
import { cellKindOf, isCellKind } from '../../definitions/cellKinds';
import { formatAmount, formatDateTime, formatRate } from '../format';
import { Tag, statusTone, type TagTone } from '../ui/primitives';
import { apiUrl } from '../apiBase';

/** Image paths are served by the API host with a cache-busting query. */
export function imageUrl(path: unknown): string | null {
  if (typeof path !== 'string' || !path) return null;
  if (path.startsWith('data:') || /^https?:\/\//.test(path)) return path;
  const p = apiUrl(path);
  return `${p}${p.includes('?') ? '&' : '?'}t=${Date.now()}`;
}

export const PLACEHOLDER_IMAGE =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="60"><rect width="80" height="60" fill="#e5e7eb"/><text x="40" y="34" font-size="9" text-anchor="middle" fill="#6b7280">No image</text></svg>',
  );

/** Review states: APPROVED green, PENDING yellow, anything else red. */
export function approvalTone(value: unknown): TagTone {
  const s = String(value ?? '').toUpperCase();
  return s === 'APPROVED' ? 'green' : s === 'PENDING' ? 'yellow' : 'red';
}

/** Payment states: SUCCESS green, PENDING and HOLD yellow, REFUNDED blue, anything else red. */
export function paymentStatusTone(value: unknown): TagTone {
  switch (String(value ?? '').toUpperCase()) {
    case 'SUCCESS':
      return 'green';
    case 'PENDING':
    case 'HOLD':
      return 'yellow';
    case 'REFUNDED':
      return 'blue';
    default:
      return 'red';
  }
}

function asText(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The renderer of each cell kind (the kinds and the rest of what they declare: src/definitions/cellKinds.ts).
 * `satisfies` makes a kind without a renderer a compile error.
 */
export const cellRenderers = {
  text: asText,
  rate: (value) => formatRate(value),
  amount: (value) => formatAmount(value),
  integer: (value) => (value === null || value === undefined ? '-' : String(value)),
  datetime: (value) => formatDateTime(value),
  status: (value) => <Tag tone={statusTone(value)}>{String(value ?? '')}</Tag>,
  paymentStatus: (value) => (value === null || value === undefined || value === '' ? '-' : <Tag tone={paymentStatusTone(value)}>{String(value)}</Tag>),
  approval: (value) => <Tag tone={approvalTone(value)}>{String(value ?? '')}</Tag>,
  yesNo: (value) => (value === true || value === 1 || value === 'yes' || value === 'Yes' ? 'Yes' : 'No'),
  tags: (value) => {
    const list = Array.isArray(value) ? value : typeof value === 'string' && value ? value.split(',') : [];
    return (
      <span className="flex max-w-md flex-wrap gap-1">
        {list.map((v, i) => (
          <Tag key={i} tone="blue">
            {String(v)}
          </Tag>
        ))}
      </span>
    );
  },
  image: (value) => {
    const src = imageUrl(value) ?? PLACEHOLDER_IMAGE;
    return <img src={src} alt="" className="h-10 w-auto max-w-[120px] rounded border border-line object-contain" onError={(e) => ((e.target as HTMLImageElement).src = PLACEHOLDER_IMAGE)} />;
  },
  // a list column is drawn by ListCell (DataTable); elsewhere, as text
  list: asText,
} satisfies Record<CellKind, (value: unknown) => ReactNode>;

export function renderCell(kind: CellKind | undefined, value: unknown): ReactNode {
  return (isCellKind(kind) ? cellRenderers[kind] : asText)(value);
}

/** Right-aligned (and sorted high to low first): the kinds that declare it. */
export function isNumericKind(kind: CellKind | undefined): boolean {
  return cellKindOf(kind).align === 'right';
}

/** The arrow button of expandable panels (tooltip 'Click to view'). */
function Expander({ open, onToggle, label }: { open: boolean; onToggle: () => void; label: string }) {
  return (
    <button
      type="button"
      title="Click to view"
      aria-label={`${label}: click to view`}
      aria-expanded={open}
      onClick={onToggle}
      className="rounded px-1.5 text-accent hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent"
    >
      {open ? '▾' : '▸'}
    </button>
  );
}

/** A read-only panel of some of the row's fields, opened by the arrow button. */
export function PanelCell({ title, fields, row }: { title: string; fields: readonly PanelField<unknown>[]; row: Record<string, unknown> }) {
  const [open, setOpen] = useState(false);
  // nothing to show (e.g. no void happened): a dash, as for any empty cell
  if (fields.every((f) => row[f.key] === null || row[f.key] === undefined || row[f.key] === '')) return '-';
  return (
    <div>
      <Expander open={open} onToggle={() => setOpen(!open)} label={title} />
      {open && (
        <dl className="mt-1 grid min-w-56 grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded border border-line bg-muted/60 p-2 text-xs">
          {fields.map((f) => (
            <div key={f.key} className="contents">
              <dt className="text-ink-soft">{f.label}</dt>
              <dd className={isNumericKind(f.kind) ? 'text-right tabular-nums' : ''}>{renderCell(f.kind, row[f.key])}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/** A list of items (e.g. dependants), each shown with its fields, opened by the arrow button. */
export function ListCell({ title, items, fields }: { title: string; items: unknown; fields: readonly { key: string; label: string }[] }) {
  const [open, setOpen] = useState(false);
  const list = Array.isArray(items) ? (items as Record<string, unknown>[]) : [];
  if (list.length === 0) return '-';
  return (
    <div>
      <Expander open={open} onToggle={() => setOpen(!open)} label={title} />
      <span className="text-xs text-ink-soft">{list.length}</span>
      {open && (
        <ol className="mt-1 flex min-w-64 flex-col gap-1 text-xs">
          {list.map((item, i) => (
            <li key={i} className="max-w-md whitespace-normal rounded border border-line bg-muted/60 p-2">
              {fields.map((f) => (
                <span key={f.key} className="mr-3 inline-block">
                  <span className="text-ink-soft">{f.label}: </span>
                  {renderCell('text', item[f.key])}
                </span>
              ))}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
