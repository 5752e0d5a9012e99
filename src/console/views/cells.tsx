/** Cell renderers by column kind. Text is always rendered as text (React escapes it), never as HTML. */
import type { ReactNode } from 'react';
import type { CellKind } from '../definitions';
import { formatAmount, formatDateTime } from '../format';
import { Tag, statusTone } from '../ui/primitives';

/** Image paths are served by the API host with a cache-busting query. */
export function imageUrl(path: unknown): string | null {
  if (typeof path !== 'string' || !path) return null;
  if (path.startsWith('data:') || /^https?:\/\//.test(path)) return path;
  const p = path.startsWith('/') ? path : `/${path}`;
  return `${p}${p.includes('?') ? '&' : '?'}t=${Date.now()}`;
}

export const PLACEHOLDER_IMAGE =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="80" height="60"><rect width="80" height="60" fill="#e5e7eb"/><text x="40" y="34" font-size="9" text-anchor="middle" fill="#6b7280">No image</text></svg>');

export function renderCell(kind: CellKind | undefined, value: unknown): ReactNode {
  switch (kind) {
    case 'amount':
      return formatAmount(value);
    case 'integer':
      return value === null || value === undefined ? '-' : String(value);
    case 'datetime':
      return formatDateTime(value);
    case 'status':
      return <Tag tone={statusTone(value)}>{String(value ?? '')}</Tag>;
    case 'yesNo':
      return value === true || value === 1 || value === 'yes' || value === 'Yes' ? 'Yes' : 'No';
    case 'tags': {
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
    }
    case 'image': {
      const src = imageUrl(value) ?? PLACEHOLDER_IMAGE;
      return <img src={src} alt="" className="h-10 w-auto max-w-[120px] rounded border border-line object-contain" onError={(e) => ((e.target as HTMLImageElement).src = PLACEHOLDER_IMAGE)} />;
    }
    default:
      if (value === null || value === undefined || value === '') return '-';
      if (Array.isArray(value)) return value.join(', ');
      if (typeof value === 'object') return JSON.stringify(value);
      return String(value);
  }
}

export function isNumericKind(kind: CellKind | undefined): boolean {
  return kind === 'amount' || kind === 'integer';
}
