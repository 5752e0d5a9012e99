/**
 * The column chooser of list screens: which columns show, in what order, and how wide, remembered per
 * screen and user in local storage, with "Reset columns". The pinned (identifying) columns always show
 * and keep their places; the chooser orders the others around them.
 */
import { useCallback, useState } from 'react';
import type { Column } from '../../definitions/definitions';
import { Button, Modal } from '../ui/primitives';

export interface ColumnPrefs {
  /** Keys of the columns hidden. */
  readonly hidden: readonly string[];
  /** Keys in the order chosen (columns not named keep their declared place after those named). */
  readonly order: readonly string[];
  /** Widths in CSS pixels of the columns resized. */
  readonly widths: Readonly<Record<string, number>>;
}

export const NO_PREFS: ColumnPrefs = { hidden: [], order: [], widths: {} };

/** Where a user's columns of a screen are kept. */
export function columnPrefsKey(username: string, screenId: string): string {
  return `remit.list.${username}.${screenId}.columns`;
}

/** The prefs read back from storage; anything malformed counts as none. */
export function parsePrefs(text: string | null): ColumnPrefs {
  if (!text) return NO_PREFS;
  try {
    const v = JSON.parse(text) as Partial<ColumnPrefs>;
    const strings = (a: unknown) => (Array.isArray(a) ? a.filter((x): x is string => typeof x === 'string') : []);
    const widths: Record<string, number> = {};
    if (v.widths && typeof v.widths === 'object') for (const [k, w] of Object.entries(v.widths)) if (typeof w === 'number' && w >= 40 && w <= 2000) widths[k] = Math.round(w);
    return { hidden: strings(v.hidden), order: strings(v.order), widths };
  } catch {
    return NO_PREFS;
  }
}

/**
 * The columns as the user arranged them: the pinned ones in their declared places, the others in the
 * chosen order in the remaining places, then the hidden ones left out (never a pinned one).
 */
export function arrangeColumns<C extends { key: string }>(columns: readonly C[], pinned: readonly string[], prefs: ColumnPrefs): C[] {
  const rank = (k: string) => {
    const i = prefs.order.indexOf(k);
    return i < 0 ? prefs.order.length + columns.findIndex((c) => c.key === k) : i;
  };
  const movable = columns.filter((c) => !pinned.includes(c.key)).sort((a, b) => rank(a.key) - rank(b.key));
  let next = 0;
  const placed = columns.map((c) => (pinned.includes(c.key) ? c : movable[next++]));
  return placed.filter((c) => pinned.includes(c.key) || !prefs.hidden.includes(c.key));
}

/** A screen's column prefs for a user, and a setter that stores them. */
export function useColumnPrefs(username: string, screenId: string): [ColumnPrefs, (next: ColumnPrefs) => void] {
  const key = columnPrefsKey(username, screenId);
  const [state, setState] = useState<{ key: string; prefs: ColumnPrefs }>(() => ({ key, prefs: read(key) }));
  const prefs = state.key === key ? state.prefs : read(key);
  const set = useCallback(
    (next: ColumnPrefs) => {
      setState({ key, prefs: next });
      try {
        if (next.hidden.length === 0 && next.order.length === 0 && Object.keys(next.widths).length === 0) localStorage.removeItem(key);
        else localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // storage refused: the arrangement lasts for this visit only
      }
    },
    [key],
  );
  return [prefs, set];
}

function read(key: string): ColumnPrefs {
  try {
    return parsePrefs(localStorage.getItem(key));
  } catch {
    return NO_PREFS;
  }
}

/** The Columns button and its dialog: a checkbox per column, Move up and Move down, and Reset columns. */
export function ColumnChooser<Row>({ columns, pinned, prefs, onChange }: { columns: readonly Column<Row>[]; pinned: readonly string[]; prefs: ColumnPrefs; onChange: (next: ColumnPrefs) => void }) {
  const [open, setOpen] = useState(false);
  const movable = arrangeColumns(columns, [], { ...prefs, hidden: [] }).filter((c) => !pinned.includes(c.key));
  const order = movable.map((c) => c.key as string);
  const hiddenCount = prefs.hidden.filter((k) => !pinned.includes(k) && columns.some((c) => c.key === k)).length;
  const customised = prefs.hidden.length > 0 || prefs.order.length > 0 || Object.keys(prefs.widths).length > 0;

  function move(i: number, by: -1 | 1) {
    const next = [...order];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange({ ...prefs, order: next });
  }
  function toggle(key: string, show: boolean) {
    onChange({ ...prefs, hidden: show ? prefs.hidden.filter((k) => k !== key) : [...prefs.hidden, key] });
  }

  return (
    <>
      <Button onClick={() => setOpen(true)} className="py-1">
        Columns{hiddenCount > 0 ? ` (${hiddenCount} hidden)` : ''}
      </Button>
      {customised && (
        <Button variant="ghost" className="py-1" onClick={() => onChange(NO_PREFS)}>
          Reset columns
        </Button>
      )}
      <Modal
        open={open}
        onOpenChange={setOpen}
        title="Columns"
        footer={
          <>
            <Button onClick={() => onChange(NO_PREFS)} disabled={!customised}>
              Reset columns
            </Button>
            <Button variant="primary" onClick={() => setOpen(false)}>
              Done
            </Button>
          </>
        }
      >
        <p className="mb-2 text-sm text-ink-soft">
          {pinned.length > 0 &&
            `${columns
              .filter((c) => pinned.includes(c.key))
              .map((c) => c.header)
              .join(' and ')} always show, in their places. `}
          Drag a column header's right edge to change its width.
        </p>
        <ul className="flex flex-col gap-1" aria-label="Columns shown">
          {movable.map((c, i) => (
            <li key={c.key} className="flex items-center gap-2 rounded px-1 hover:bg-muted">
              <input id={`col-${c.key}`} type="checkbox" checked={!prefs.hidden.includes(c.key)} onChange={(e) => toggle(c.key, e.target.checked)} />
              <label htmlFor={`col-${c.key}`} className="flex-1 text-sm">
                {c.header}
              </label>
              <Button variant="ghost" className="px-1.5 py-0" aria-label={`Move ${c.header} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                ↑
              </Button>
              <Button variant="ghost" className="px-1.5 py-0" aria-label={`Move ${c.header} down`} disabled={i === movable.length - 1} onClick={() => move(i, 1)}>
                ↓
              </Button>
            </li>
          ))}
        </ul>
      </Modal>
    </>
  );
}
