/**
 * The calendar of a filter bar's date range: a popover beside the From and To fields with the presets and
 * a month of days (react-day-picker). Loaded on demand, when a calendar is first opened
 * (./DateRangeFilter.tsx), so the first load of the console does not carry it.
 *
 * Days are whole days of the business time zone: a day picked alone is that day 00:00:00 to 23:59:59, a
 * second day picked closes the range (in either order) and the popover. Days after today cannot be
 * picked. Keyboard: focus starts on the first preset; Tab reaches the month buttons and the days, the
 * arrow keys move between days, Enter or Space picks; Escape closes, and focus returns to the calendar
 * button.
 */
import * as Popover from '@radix-ui/react-popover';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { DayPicker, type DayButtonProps } from 'react-day-picker';
import { format, parse } from 'date-fns';
import { EARLIEST_DAY, LOCAL_DATE } from '../../domain/dates';
import { presetRange, RANGE_PRESETS, wholeDays } from '../ui/dateRangeEntry';
import { Button } from '../ui/primitives';

const dateOf = (day: string) => parse(day, LOCAL_DATE, new Date(2000, 0, 1));
const dayOf = (d: Date) => format(d, LOCAL_DATE);

export interface DateRangeCalendarProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The calendar button: the popover sits below it and focus returns to it. */
  anchor: RefObject<HTMLButtonElement | null>;
  /** The business day 'yyyy-MM-dd': the last day that can be picked. */
  today: string;
  /** The days of the committed range ('yyyy-MM-dd'), if its fields hold date-times. */
  fromDay: string | null;
  toDay: string | null;
  /** A range picked (values before the rules apply); `done` when the popover closes with it. */
  onPick: (range: { from: string; to: string }, done: boolean) => void;
  /** The popover's accessible name. */
  label: string;
}

export default function DateRangeCalendar({ open, onOpenChange, anchor, label, ...body }: DateRangeCalendarProps) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content
          aria-label={label}
          align="start"
          side="bottom"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 flex gap-3 rounded-lg border border-line bg-surface p-3 text-ink shadow-lg outline-none"
          // the button toggles the popover: a press on it is not a press outside
          onInteractOutside={(e) => {
            if (anchor.current?.contains(e.target as Node)) e.preventDefault();
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            anchor.current?.focus();
          }}
        >
          <CalendarBody {...body} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function CalendarBody({ today, fromDay, toDay, onPick }: Omit<DateRangeCalendarProps, 'open' | 'onOpenChange' | 'anchor' | 'label'>) {
  /** The first day of a range being picked (the next day picked closes it). */
  const [first, setFirst] = useState<string | null>(null);
  const todayDate = dateOf(today);
  const selected = first ? { from: dateOf(first), to: dateOf(first) } : fromDay && toDay ? { from: dateOf(fromDay), to: dateOf(toDay) } : undefined;
  return (
    <>
      <ul className="flex w-32 flex-col gap-1 border-r border-line pr-3" aria-label="Presets">
        {RANGE_PRESETS.map((p) => (
          <li key={p.id}>
            <Button variant="ghost" className="w-full justify-start" onClick={() => onPick(presetRange(p.id, today), true)}>
              {p.label}
            </Button>
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-2">
        <DayPicker
          mode="range"
          selected={selected}
          onSelect={(_range, day) => {
            const picked = dayOf(day);
            if (first === null) {
              setFirst(picked);
              onPick(wholeDays(picked, picked), false);
            } else {
              setFirst(null);
              onPick(wholeDays(first, picked), true);
            }
          }}
          defaultMonth={selected?.to ?? todayDate}
          startMonth={dateOf(EARLIEST_DAY)}
          endMonth={todayDate}
          disabled={[{ after: todayDate }, { before: dateOf(EARLIEST_DAY) }]}
          today={todayDate}
          showOutsideDays
          components={{ DayButton }}
          classNames={{
            root: 'relative text-sm',
            months: 'flex',
            month: 'flex flex-col gap-2',
            month_caption: 'flex h-8 items-center px-1',
            caption_label: 'text-sm font-semibold text-ink',
            nav: 'absolute right-0 top-0 flex h-8 items-center gap-1',
            button_previous:
              'inline-flex h-7 w-7 items-center justify-center rounded-md text-ink-soft hover:bg-muted hover:text-ink focus-visible:outline-2 focus-visible:outline-accent aria-disabled:cursor-not-allowed aria-disabled:opacity-40',
            button_next:
              'inline-flex h-7 w-7 items-center justify-center rounded-md text-ink-soft hover:bg-muted hover:text-ink focus-visible:outline-2 focus-visible:outline-accent aria-disabled:cursor-not-allowed aria-disabled:opacity-40',
            chevron: 'h-4 w-4 fill-current',
            month_grid: 'border-collapse',
            weekdays: '',
            weekday: 'h-7 w-8 text-center text-xs font-medium text-ink-soft',
            week: '',
            day: 'p-0 text-center',
          }}
        />
        <p className="text-xs text-ink-soft" role="status">
          {first ? 'Pick the last day of the range' : 'Pick the first day, then the last'}
        </p>
      </div>
    </>
  );
}

/** A day: the range's ends filled with the accent, the days between tinted, today underlined. */
function DayButton({ day: _day, modifiers, className: _className, ...props }: DayButtonProps) {
  // the grid moves the focus by marking a day focused (as react-day-picker's own DayButton does)
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (modifiers.focused) ref.current?.focus();
  }, [modifiers.focused]);
  const ends = modifiers.range_start || modifiers.range_end;
  const tone = ends
    ? 'bg-accent-fill font-semibold text-white hover:bg-accent-fill-strong'
    : modifiers.range_middle
      ? 'bg-accent/15 text-ink hover:bg-accent/25'
      : modifiers.outside
        ? 'text-ink-soft hover:bg-muted'
        : 'text-ink hover:bg-muted';
  return (
    <button
      {...props}
      ref={ref}
      className={`m-px h-8 w-8 rounded-md text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-not-allowed disabled:text-ink-soft disabled:opacity-40 disabled:hover:bg-transparent ${tone} ${modifiers.today ? 'underline decoration-2 underline-offset-4' : ''}`}
    />
  );
}
