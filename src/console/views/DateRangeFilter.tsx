/**
 * A filter bar's From and To date-time fields ('yyyy-MM-dd HH:mm:ss', en-CA) and the calendar button
 * beside them. The fields show the range as the filter bar holds it (./FilterBar.tsx keeps the texts and
 * commits them through ../ui/dateRangeEntry.ts): typing changes only the text; the field loses the focus,
 * Enter, a picked day or preset, or Search commit it, and the field then shows what Search sends.
 *
 * The messages sit on one line under the fields, in space the filter bar keeps free for them, so a
 * message never moves the Search button. The calendar (./DateRangeCalendar.tsx) loads when it is
 * first opened.
 */
import { lazy, Suspense, useRef, useState } from 'react';
import { inputClass } from '../ui/primitives';
import type { RangeEnd, RangeEntry } from '../ui/dateRangeEntry';

const DateRangeCalendar = lazy(() => import('./DateRangeCalendar'));

export function DateRangeFilter({
  ids,
  labels,
  entry,
  today,
  onType,
  onCommit,
  onPick,
}: {
  /** The fields' element ids. */
  ids: Record<RangeEnd, string>;
  labels: Record<RangeEnd, string>;
  entry: RangeEntry;
  /** The business day 'yyyy-MM-dd' (the calendar's last day). */
  today: string;
  onType: (end: RangeEnd, text: string) => void;
  /** The field lost the focus. */
  onCommit: (end: RangeEnd) => void;
  /** A day or preset picked in the calendar (whole days, before the rules apply). */
  onPick: (range: { from: string; to: string }) => void;
}) {
  const [open, setOpen] = useState(false);
  /** The calendar has been opened once (its code is then loaded and stays). */
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const errorId = (end: RangeEnd) => `${ids[end]}-error`;
  const dayOfField = (end: RangeEnd) => (entry[end].message === null && /^\d{4}-\d{2}-\d{2}/.test(entry[end].text) ? entry[end].text.slice(0, 10) : null);
  const field = (end: RangeEnd) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={ids[end]} className="text-xs font-medium text-ink-soft">
        {labels[end]}
      </label>
      <input
        id={ids[end]}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder="yyyy-MM-dd HH:mm:ss"
        className={`${entry[end].message ? inputClass.replace('border-line', 'border-red-600 dark:border-red-400') : inputClass} w-44 tabular-nums`}
        value={entry[end].text}
        aria-invalid={entry[end].message ? true : undefined}
        aria-describedby={entry[end].message ? errorId(end) : undefined}
        onChange={(e) => onType(end, e.target.value)}
        onBlur={() => onCommit(end)}
      />
    </div>
  );
  return (
    <div className="relative flex items-end gap-2">
      {field('from')}
      {field('to')}
      <button
        ref={button}
        type="button"
        aria-label={`Calendar: ${labels.from} and ${labels.to} days`}
        aria-haspopup="dialog"
        aria-expanded={open}
        title="Calendar"
        className="inline-flex h-[34px] w-9 items-center justify-center rounded-md border border-line bg-surface text-ink-soft hover:bg-muted hover:text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        // fetch the calendar's code as the pointer or the focus comes near, so it opens at once
        onPointerEnter={() => void import('./DateRangeCalendar')}
        onFocus={() => void import('./DateRangeCalendar')}
        onClick={() => {
          setWanted(true);
          setOpen((o) => !o);
        }}
      >
        <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
          <path
            fillRule="evenodd"
            d="M5.75 2a.75.75 0 01.75.75V4h7V2.75a.75.75 0 011.5 0V4h.25A2.75 2.75 0 0118 6.75v8.5A2.75 2.75 0 0115.25 18H4.75A2.75 2.75 0 012 15.25v-8.5A2.75 2.75 0 014.75 4H5V2.75A.75.75 0 015.75 2zm-1 5.5c-.69 0-1.25.56-1.25 1.25v6.5c0 .69.56 1.25 1.25 1.25h10.5c.69 0 1.25-.56 1.25-1.25v-6.5c0-.69-.56-1.25-1.25-1.25H4.75z"
            clipRule="evenodd"
          />
        </svg>
      </button>
      <div className="pointer-events-none absolute left-0 top-full mt-1 flex gap-3 whitespace-nowrap text-xs leading-4 text-red-700 dark:text-red-400">
        {(['from', 'to'] as const).map(
          (end) =>
            entry[end].message && (
              <p key={end} role="alert">
                <span aria-hidden="true">{labels[end]}: </span>
                <span id={errorId(end)}>{entry[end].message}</span>
              </p>
            ),
        )}
      </div>
      {wanted && (
        <Suspense fallback={null}>
          <DateRangeCalendar
            open={open}
            onOpenChange={setOpen}
            anchor={button}
            today={today}
            fromDay={dayOfField('from')}
            toDay={dayOfField('to')}
            label={`${labels.from} and ${labels.to} days`}
            onPick={(range, done) => {
              onPick(range);
              if (done) setOpen(false);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
