/**
 * The comparison of a change request, in the approval modal: for an edit, each changed
 * field highlighted as "old → new", with a "Changes only" toggle (on by default) that hides the
 * unchanged fields; images old and new side by side, labelled; a list-valued field (a provider's
 * currency rates: an 'itemList' display field of the record's definition, screens/records.ts) shows
 * its declared columns and only its changed rows unless the toggle is off. A create or delete shows
 * the record's values.
 */
import { useId, useState } from 'react';
import type { ChangeRequest, RecordField } from '../../api/contract';
import { records } from '../../../screens/records';
import { displayFieldOf, itemCellText, rowKeyOf, type DisplayField } from '../../definitions/records';
import { HIDDEN_FIELDS, itemRowsOf, rowChanges, sameValue, type RowChange } from '../changeRequestDiff';
import { Tag } from '../ui/primitives';
import { imageUrl, PLACEHOLDER_IMAGE } from './cells';

const changedClass = 'rounded bg-yellow-100 px-1 dark:bg-yellow-900/40';

/** The old value of a changed field: struck through and secondary, so old and new never look alike. */
const oldClass = 'text-ink-soft line-through';

/** An image at the specification's 70 px; a click opens it full size in a new tab. */
function Img({ path, label }: { path: unknown; label: string }) {
  const src = imageUrl(path);
  const img = (
    <img
      src={src ?? PLACEHOLDER_IMAGE}
      alt={label}
      className="h-[70px] w-auto max-w-[10rem] rounded border border-line object-contain"
      onError={(e) => ((e.target as HTMLImageElement).src = PLACEHOLDER_IMAGE)}
    />
  );
  return src ? (
    <a href={src} target="_blank" rel="noopener noreferrer" title={`${label}: open full size`} className="rounded focus-visible:outline-2">
      {img}
    </a>
  ) : (
    img
  );
}

function isImage(field: RecordField | undefined): boolean {
  return field?.type === 'IMAGE' || field?.type === 'IMAGE_ARRAY';
}

function imagesOf(field: RecordField | undefined): unknown[] {
  if (!field) return [];
  if (field.type === 'IMAGE') return field.value ? [field.value] : [];
  return (Array.isArray(field.value) ? field.value : []).map((p) => (typeof p === 'object' && p ? (p as { image?: unknown }).image : p));
}

/** A field's value as text or tags (images and rows are drawn apart). */
function Value({ field, old = false }: { field: RecordField | undefined; old?: boolean }) {
  if (!field) return <span className="text-ink-soft">-</span>;
  const v = field.value;
  if (field.type === 'STRING_ARRAY') {
    const list = Array.isArray(v) ? v : [];
    if (list.length === 0) return <span className="text-ink-soft">-</span>;
    return (
      <span className="inline-flex flex-wrap gap-1">
        {list.map((s, i) => (
          <Tag key={i} tone={old ? 'gray' : 'blue'}>
            {old ? <span className="line-through">{String(s)}</span> : String(s)}
          </Tag>
        ))}
      </span>
    );
  }
  return <span className="break-all">{v === null || v === undefined || v === '' ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v)}</span>;
}

/** Old and new images side by side, each labelled. */
function ImagesSideBySide({ prev, next, edit }: { prev: RecordField | undefined; next: RecordField | undefined; edit: boolean }) {
  const column = (label: string, field: RecordField | undefined) => (
    <figure className="flex flex-col gap-1" data-image={label.toLowerCase()}>
      <figcaption className="text-xs font-semibold text-ink-soft">{label}</figcaption>
      <span className="flex flex-wrap gap-2">
        {imagesOf(field).length === 0 ? (
          <span className="text-ink-soft">-</span>
        ) : (
          imagesOf(field).map((p, i) => <Img key={i} path={p} label={`${label} ${next?.header ?? prev?.header ?? ''} ${i + 1}`.trim()} />)
        )}
      </span>
    </figure>
  );
  if (!edit) return column('Image', next ?? prev);
  return (
    <div className="grid grid-cols-2 gap-4">
      {column('Old', prev)}
      {column('New', next)}
    </div>
  );
}

type ItemListField = Extract<DisplayField, { kind: 'itemList' }>;

/** An item list: its declared columns; changed cells as "old → new"; with changesOnly, only the added, removed and changed rows. */
function ItemListTable({ field, next, prev, changesOnly }: { field: ItemListField; next: Record<string, unknown>[]; prev: Record<string, unknown>[] | undefined; changesOnly: boolean }) {
  const columns = field.columns;
  const keys = columns.map((c) => c.key);
  const all = rowChanges(next, prev, keys, rowKeyOf(field));
  const changed = all.filter((r) => r.kind !== 'same');
  const rows: RowChange[] = changesOnly && prev !== undefined ? changed : all;
  return (
    <div className="flex flex-col gap-1">
      {prev !== undefined && (
        <p className="text-xs text-ink-soft" role="status">
          {changed.length} of {all.length} rows changed{changesOnly && changed.length < all.length ? ' (unchanged rows hidden)' : ''}
        </p>
      )}
      {rows.length > 0 && (
        <table className="w-full text-sm">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} className="border-b border-line px-2 py-1 text-left font-semibold">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.kind}:${r.key}`} data-row={r.key} data-change={r.kind} className={`border-b border-line/50 ${r.kind === 'removed' ? 'text-ink-soft line-through' : ''}`}>
                {columns.map((c) => {
                  const k = c.key;
                  const cellChanged = r.kind === 'changed' && !sameValue(r.prev?.[k], r.next?.[k]);
                  return (
                    <td key={k} className="px-2 py-1 tabular-nums">
                      {cellChanged ? (
                        <span className={changedClass}>
                          <span data-old className={oldClass}>
                            {itemCellText(c, r.prev?.[k])}
                          </span>{' '}
                          <span aria-hidden="true">→</span>
                          <span className="sr-only"> changed to </span> <span data-new>{itemCellText(c, r.next?.[k])}</span>
                        </span>
                      ) : (
                        itemCellText(c, (r.next ?? r.prev)?.[k])
                      )}
                      {r.kind === 'added' && k === keys[0] && (
                        <span className="ml-1">
                          <Tag tone="green">new</Tag>
                        </span>
                      )}
                      {r.kind === 'removed' && k === keys[0] && <span className="sr-only"> (removed)</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function ChangeComparison({ request }: { request: ChangeRequest }) {
  const toggleId = useId();
  const [changesOnly, setChangesOnly] = useState(true);
  const edit = request.pendingAction === 'EDIT' && request.originalRecord !== null;
  const original = request.originalRecord ?? {};
  const names = Array.from(new Set([...Object.keys(request.newRecord), ...Object.keys(original)])).filter((k) => !HIDDEN_FIELDS.has(k));
  const isChanged = (name: string) => edit && !sameValue(original[name]?.value, request.newRecord[name]?.value);
  const changedCount = names.filter(isChanged).length;
  const shown = edit && changesOnly ? names.filter(isChanged) : names;
  return (
    <div className="flex flex-col gap-3">
      {edit && (
        <div className="flex items-center justify-between gap-3 text-sm">
          <span role="status" className="text-ink-soft">
            {changedCount} of {names.length} fields changed
          </span>
          <label htmlFor={toggleId} className="inline-flex items-center gap-2">
            <input id={toggleId} type="checkbox" checked={changesOnly} onChange={(e) => setChangesOnly(e.target.checked)} />
            Changes only
          </label>
        </div>
      )}
      <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
        {shown.map((name) => {
          const next = request.newRecord[name];
          const prev = edit ? original[name] : undefined;
          const header = next?.header ?? prev?.header ?? name;
          const changed = isChanged(name);
          const declared = displayFieldOf(records, request.type, name);
          let value;
          if (declared?.kind === 'itemList') {
            value = <ItemListTable field={declared} next={itemRowsOf(next)} prev={edit ? itemRowsOf(prev) : undefined} changesOnly={changesOnly} />;
          } else if (isImage(next) || isImage(prev)) {
            value = <ImagesSideBySide prev={prev} next={next} edit={edit} />;
          } else if (changed) {
            value = (
              <span className={changedClass}>
                <span data-old className={oldClass}>
                  <Value field={prev} old />
                </span>{' '}
                <span aria-hidden="true">→</span>
                <span className="sr-only"> changed to </span>{' '}
                <span data-new>
                  <Value field={next} />
                </span>
              </span>
            );
          } else {
            value = (
              <span data-new>
                <Value field={next ?? prev} />
              </span>
            );
          }
          return (
            <div key={name} className="contents" data-field={name} data-changed={changed ? 'true' : undefined}>
              <dt className={`font-medium ${changed ? 'text-ink' : 'text-ink-soft'}`}>
                {header}
                {changed && <span className="sr-only"> (changed)</span>}
              </dt>
              <dd className="min-w-0">{value}</dd>
            </div>
          );
        })}
      </dl>
      {edit && changesOnly && changedCount === 0 && <p className="text-sm text-ink-soft">No field differs from the record as it is.</p>}
    </div>
  );
}
