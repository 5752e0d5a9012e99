/**
 * The top bar's search: a trace, transaction ID or customer UID looked up across the five
 * services and all dates in one call (Transaction/find). The command palette (Ctrl+K) hands it a
 * value to look up (`find` of its handle). Enter searches; the results list service, ID, trace, date,
 * amount and status; Arrow keys move through them and Enter (or a click) opens the row's detail
 * drawer (`?find=<service>:<id>`).
 * Escape closes the results. Shown to users who may view at least one service.
 */
import { useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { SessionUser } from '../../definitions/definitions';
import { findTransactions, FIND_ROWS_PER_SERVICE, FIND_VALUE_MAX, type FindData, type FindMatch } from '../../api/finder';
import { findServiceLabels, viewableFindServices } from '../../domain/transactionFinder';
import { callApi, failureMessage } from '../request';
import { formatAmount, formatDateTime } from '../format';
import { FOUND_ROW_PARAM, foundRowValue } from '../finder';
import { paymentStatusTone } from './cells';
import { Tag } from '../ui/primitives';

type Outcome = { value: string; state: 'loading' } | { value: string; state: 'done'; data: FindData } | { value: string; state: 'failed'; message: string };

/** What the rest of the console may ask of the search. */
export interface FindBoxHandle {
  /** Puts focus in the search with this value and looks it up (an empty value: focus only). */
  find(value: string): void;
}

export function FindBox({ user, ref }: { user: SessionUser; ref?: Ref<FindBoxHandle> }) {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const listId = useId();
  const [value, setValue] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const latest = useRef(0);
  const services = viewableFindServices(user.permissions);

  useImperativeHandle(ref, () => ({
    find(text: string) {
      setValue(text);
      input.current?.focus();
      if (text.trim()) void run(text.trim());
    },
  }));

  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  if (services.length === 0) return null;

  async function run(text: string) {
    const n = ++latest.current;
    setOutcome({ value: text, state: 'loading' });
    setActive(0);
    setOpen(true);
    const res = await callApi(findTransactions, { value: text });
    if (n !== latest.current) return; // a newer search has started
    if (res.ok) setOutcome({ value: text, state: 'done', data: res.data });
    else setOutcome({ value: text, state: 'failed', message: res.statusCode === 400 ? (failureMessage(res)?.replace(/^value: /, '') ?? 'Not a trace, ID or UID') : 'The search failed. Try again.' });
  }

  function openMatch(m: FindMatch) {
    setOpen(false);
    void navigate({ to: '.', search: ((prev: Record<string, unknown>) => ({ ...prev, [FOUND_ROW_PARAM]: foundRowValue(m.service, m.row.id) })) as never });
  }

  const matches = outcome?.state === 'done' ? outcome.data.matches : [];
  const optionId = (i: number) => `${listId}-option-${i}`;

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const text = value.trim();
    if (e.key === 'Enter') {
      e.preventDefault();
      if (!text) return;
      // the same value again with its results shown: open the highlighted row
      if (open && outcome?.state === 'done' && outcome.value === text && matches[active]) openMatch(matches[active]);
      else void run(text);
    } else if (e.key === 'ArrowDown' && open && matches.length > 0) {
      e.preventDefault();
      setActive((a) => (a + 1) % matches.length);
    } else if (e.key === 'ArrowUp' && open && matches.length > 0) {
      e.preventDefault();
      setActive((a) => (a - 1 + matches.length) % matches.length);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  }

  const expanded = open && !!outcome;
  return (
    <div ref={box} className="relative w-[min(26rem,40vw)]">
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-label="Find a transaction by trace, ID or UID"
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        aria-autocomplete="none"
        aria-activedescendant={expanded && matches[active] ? optionId(active) : undefined}
        placeholder="Find by trace, ID or UID"
        maxLength={FIND_VALUE_MAX}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => outcome && setOpen(true)}
        className="w-full rounded-md border border-line bg-canvas px-3 py-1.5 text-sm text-ink placeholder:text-ink-soft focus-visible:outline-2 focus-visible:outline-accent"
      />
      {expanded && (
        <div className="absolute left-0 right-0 top-full z-40 mt-1 max-h-[70vh] overflow-auto rounded-md border border-line bg-surface shadow-lg">
          {outcome.state === 'loading' ? (
            <p role="status" className="px-3 py-2 text-sm text-ink-soft">
              Searching…
            </p>
          ) : outcome.state === 'failed' ? (
            <p role="alert" className="px-3 py-2 text-sm text-red-700 dark:text-red-300">
              {outcome.message}
            </p>
          ) : matches.length === 0 ? (
            <p role="status" className="px-3 py-2 text-sm text-ink-soft">
              No transaction matches {outcome.value} in {outcome.data.searched.map((s) => findServiceLabels[s]).join(', ')}.
            </p>
          ) : (
            <>
              <p role="status" className="sr-only">
                {matches.length} found. Use the arrow keys and Enter to open one.
              </p>
              <ul id={listId} role="listbox" aria-label="Transactions found" className="py-1">
                {matches.map((m, i) => (
                  <li
                    key={`${m.service}:${m.row.id}`}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === active}
                    className={`cursor-pointer px-3 py-1.5 text-sm ${i === active ? 'bg-accent/10' : 'hover:bg-muted'}`}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseEnter={() => setActive(i)}
                    onClick={() => openMatch(m)}
                  >
                    <div className="flex items-center justify-between gap-2">
                      <span className="font-medium">
                        {findServiceLabels[m.service]} · ID {m.row.id}
                      </span>
                      <Tag tone={paymentStatusTone(m.status)}>{m.status}</Tag>
                    </div>
                    <div className="flex flex-wrap justify-between gap-x-3 text-xs text-ink-soft tabular-nums">
                      <span>Trace {m.row.trace}</span>
                      <span>{formatDateTime(m.row.initiated_time)}</span>
                      <span>
                        {m.row.currency_code} {formatAmount(m.row.amount)}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
              {outcome.data.truncated && <p className="border-t border-line px-3 py-1.5 text-xs text-ink-soft">Showing the newest {FIND_ROWS_PER_SERVICE} of each service.</p>}
            </>
          )}
        </div>
      )}
    </div>
  );
}
