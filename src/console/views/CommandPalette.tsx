/**
 * The command palette (Ctrl+K, or Cmd+K on a Mac, or the top bar's "Ctrl K" button): a dialog with a
 * search box and the entries the user may use (../commandPalette.ts), filtered as they type. The
 * box is an ARIA combobox over a listbox: Up and Down move the highlighted entry, Enter runs it, a
 * click runs it too; Escape closes the dialog and focus goes back to where it was.
 *
 * Going to a screen leaves focus to the shell, which puts it on the new screen's heading. "Approve
 * next" asks the inbox call for its oldest request (limit 1) and opens it in the approvals inbox
 * (`/approvals?request=<id>`). "Find transaction" hands the typed value to the top-bar search, which
 * looks it up and lists what it finds as it always does. Loaded on the first Ctrl+K (the shell's lazy import).
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { AnyScreen, SessionUser } from '../../definitions/definitions';
import { menuSections } from '../../../screens/menu';
import { approvalInbox } from '../../api/approvals';
import { APPROVALS_REQUEST_PARAM, filterEntries, paletteEntries, type PaletteEntry } from '../commandPalette';
import type { ServerSettings } from '../../domain/approvals';
import { callApi, failureMessage } from '../request';
import { inputClass } from '../ui/primitives';

export default function CommandPalette({
  user,
  screens,
  ownProvider,
  settings,
  open,
  onOpenChange,
  onGo,
  onFind,
}: {
  user: SessionUser;
  screens: readonly AnyScreen[];
  /** As the sidebar has them (useOwnProvider, useServerSettings). */
  ownProvider: boolean | undefined;
  settings: ServerSettings;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Goes to a route, with search parameters. */
  onGo: (to: string, search?: Record<string, unknown>) => void;
  /** Hands a value to the top-bar search (FindBoxHandle.find). */
  onFind: (value: string) => void;
}) {
  const all = useMemo(() => paletteEntries(screens, menuSections, user.permissions, { ownProvider, settings }), [screens, user.permissions, ownProvider, settings]);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const shown = useMemo(() => filterEntries(all, query), [all, query]);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;
  // the element focused when the palette opened, and what to do once it has closed instead of going back there
  const opener = useRef<HTMLElement | null>(null);
  const afterClose = useRef<(() => void) | undefined>(undefined);

  // each opening starts afresh
  useEffect(() => {
    if (!open) return;
    setQuery('');
    setActive(0);
    setNote(undefined);
    setBusy(false);
  }, [open]);

  useEffect(() => {
    if (open) document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open, listId]);

  function closeThen(then: () => void) {
    afterClose.current = then;
    onOpenChange(false);
  }

  async function approveNext(to: string) {
    setBusy(true);
    setNote('Looking for the oldest request waiting for you…');
    const res = await callApi(approvalInbox, { limit: 1 });
    setBusy(false);
    const next = res.ok ? res.data.requests[0] : undefined;
    if (next) closeThen(() => onGo(to, { [APPROVALS_REQUEST_PARAM]: next.changeRequestId }));
    else setNote(res.ok ? 'No pending requests for you to decide.' : `The approvals could not be loaded. ${failureMessage(res) ?? ''}`.trim());
  }

  function runEntry(entry: PaletteEntry | undefined) {
    if (!entry || busy) return;
    const run = entry.run;
    if (run.kind === 'go') {
      // the screen shown now: nothing to load, focus goes back where it was
      if (window.location.pathname.toLowerCase() === run.to.toLowerCase()) onOpenChange(false);
      else closeThen(() => onGo(run.to));
    } else if (run.kind === 'approveNext') void approveNext(run.to);
    else closeThen(() => onFind(run.value ?? ''));
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const move = (by: number) => {
      e.preventDefault();
      if (shown.length) setActive((a) => (a + by + shown.length) % shown.length);
    };
    if (e.key === 'ArrowDown') move(1);
    else if (e.key === 'ArrowUp') move(-1);
    else if (e.key === 'Enter') {
      e.preventDefault();
      runEntry(shown[active]);
    }
  }

  const current = shown[active];
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed left-1/2 top-[12vh] z-50 flex max-h-[70vh] w-[min(36rem,95vw)] -translate-x-1/2 flex-col rounded-lg border border-line bg-surface text-ink shadow-xl"
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
          }}
          onCloseAutoFocus={(e) => {
            const then = afterClose.current;
            afterClose.current = undefined;
            const back = opener.current;
            if (then) {
              e.preventDefault();
              then();
            } else if (back?.isConnected) {
              e.preventDefault();
              back.focus();
            }
          }}
        >
          <Dialog.Title className="sr-only">Command palette</Dialog.Title>
          <div className="border-b border-line p-2">
            <input
              type="text"
              role="combobox"
              aria-label="Go to a screen, create, or run an action"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={current ? optionId(active) : undefined}
              autoComplete="off"
              spellCheck={false}
              placeholder="Type a screen, an action, or a trace, ID or UID"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
                setNote(undefined);
              }}
              onKeyDown={onKeyDown}
              className={`${inputClass} min-h-10`}
            />
          </div>
          <ul id={listId} role="listbox" aria-label="Commands" className="min-h-0 flex-1 overflow-y-auto py-1">
            {shown.map((entry, i) => (
              <li
                key={entry.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                data-entry={entry.id}
                className={`flex min-h-9 cursor-pointer items-center justify-between gap-3 px-3 py-1.5 text-sm ${i === active ? 'bg-accent/10 font-medium text-accent-strong' : 'text-ink'}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => i !== active && setActive(i)}
                onClick={() => runEntry(entry)}
              >
                <span>{entry.label}</span> <span className="text-xs font-normal text-ink-soft">{entry.hint}</span>
              </li>
            ))}
          </ul>
          <div className="border-t border-line px-3 py-2 text-xs text-ink-soft">
            <p role="status" className={note || shown.length === 0 ? 'mb-1 text-sm text-ink' : 'sr-only'}>
              {note ?? (shown.length === 0 ? 'Nothing matches.' : `${shown.length} ${shown.length === 1 ? 'entry' : 'entries'}`)}
            </p>
            <p aria-hidden="true">↑ ↓ to move · Enter to run · Esc to close</p>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
