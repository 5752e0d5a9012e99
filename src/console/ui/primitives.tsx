/** Small shared UI pieces: buttons, tags, loader, dialog frame, field wrapper. */
import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type ReactNode, type Ref } from 'react';

/** Button styles; `danger` and `dangerGhost` are for actions that cannot be undone (money actions, deletions). */
type Variant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'dangerGhost' | 'success';
const variantClass: Record<Variant, string> = {
  primary: 'bg-accent-fill text-white hover:bg-accent-fill-strong disabled:bg-accent-fill/40',
  secondary: 'border border-line bg-surface text-ink hover:bg-muted disabled:opacity-50',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-600/40',
  success: 'bg-emerald-700 text-white hover:bg-emerald-800 disabled:bg-emerald-700/40',
  ghost: 'text-accent hover:bg-muted disabled:opacity-50',
  dangerGhost: 'text-red-700 hover:bg-muted disabled:opacity-50 dark:text-red-400',
};

export function Button({ variant = 'secondary', className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      type="button"
      {...props}
      className={`inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed ${variantClass[variant]} ${className}`}
    />
  );
}

export type TagTone = 'green' | 'yellow' | 'red' | 'blue' | 'gray';
const toneClass: Record<TagTone, string> = {
  green: 'bg-emerald-100 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-900/50 dark:text-emerald-200',
  yellow: 'bg-amber-100 text-amber-900 ring-amber-600/30 dark:bg-amber-900/50 dark:text-amber-200',
  red: 'bg-red-100 text-red-800 ring-red-600/30 dark:bg-red-900/50 dark:text-red-200',
  blue: 'bg-sky-100 text-sky-800 ring-sky-600/30 dark:bg-sky-900/50 dark:text-sky-200',
  gray: 'bg-muted text-ink-soft ring-line',
};

export function Tag({ tone = 'gray', children }: { tone?: TagTone; children: ReactNode }) {
  return <span className={`inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${toneClass[tone]}`}>{children}</span>;
}

/** Status colours: Active green, anything else red. */
export function statusTone(value: unknown): TagTone {
  return String(value).toLowerCase() === 'active' ? 'green' : 'red';
}

/** A spinner that appears only after `delayMs` (loaders hide quick loads). */
export function Loader({ delayMs = 200, label = 'Loading' }: { delayMs?: number; label?: string }) {
  const [show, setShow] = useState(delayMs === 0);
  useEffect(() => {
    const t = setTimeout(() => setShow(true), delayMs);
    return () => clearTimeout(t);
  }, [delayMs]);
  if (!show) return null;
  return (
    <div role="progressbar" aria-label={label} className="flex items-center justify-center gap-2 p-6 text-sm text-ink-soft">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-accent border-t-transparent" />
      {label}…
    </div>
  );
}

export function LockIcon() {
  return (
    <span className="inline-flex items-center gap-1 text-ink-soft" title="Locked" aria-label="Locked">
      <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
        <path fillRule="evenodd" d="M10 1a4.5 4.5 0 00-4.5 4.5V9H5a2 2 0 00-2 2v6a2 2 0 002 2h10a2 2 0 002-2v-6a2 2 0 00-2-2h-.5V5.5A4.5 4.5 0 0010 1zm3 8V5.5a3 3 0 10-6 0V9h6z" clipRule="evenodd" />
      </svg>
      <span className="text-xs">Locked</span>
    </span>
  );
}

/**
 * A modal dialog. `dismissable={false}`: a click outside does not close it (a half-typed decision is not
 * lost to a stray click); Escape always cancels, as the Close or Cancel button would.
 *
 * Focus goes back to the control that opened it: our dialogs are opened from state, not from a Radix
 * Trigger, so Radix would otherwise drop focus on the body. The element focused when the dialog opens
 * is remembered and focused again when it closes (or unmounts), if it is still on the page.
 *
 * A body taller than the dialog is a labelled tab stop (tabIndex 0), so a keyboard user can scroll it
 * with the arrow keys; a body that fits is not, so it adds no empty stop.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  children,
  footer,
  dismissable = true,
  wide = false,
  full = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  dismissable?: boolean;
  wide?: boolean;
  full?: boolean;
}) {
  const size = full ? 'inset-4' : `left-1/2 top-12 -translate-x-1/2 ${wide ? 'w-[min(64rem,95vw)]' : 'w-[min(32rem,95vw)]'}`;
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const [scrollable, setScrollable] = useState(false);
  const observer = useRef<ResizeObserver | null>(null);
  const bodyRef = useCallback((body: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!body || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrollable(body.scrollHeight > body.clientHeight + 1);
    observer.current = new ResizeObserver(measure);
    observer.current.observe(body);
    for (const child of Array.from(body.children)) observer.current.observe(child);
    measure();
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          className={`fixed z-50 flex max-h-[90vh] flex-col rounded-lg border border-line bg-surface text-ink shadow-xl ${size} ${full ? 'max-h-none' : ''}`}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
          }}
          onCloseAutoFocus={(e) => {
            const back = opener.current;
            if (back?.isConnected) {
              e.preventDefault();
              back.focus();
            }
          }}
          onPointerDownOutside={(e) => !dismissable && e.preventDefault()}
          onInteractOutside={(e) => !dismissable && e.preventDefault()}
          aria-describedby={undefined}
          aria-labelledby={titleId}
        >
          <div className="flex items-center justify-between border-b border-line px-5 py-3">
            <Dialog.Title id={titleId} className="text-base font-semibold">
              {title}
            </Dialog.Title>
            {dismissable && (
              <Dialog.Close className="rounded p-1 text-ink-soft hover:bg-muted focus:outline-2 focus:outline-offset-2 focus:outline-accent" aria-label="Close">
                ×
              </Dialog.Close>
            )}
          </div>
          <div
            ref={bodyRef}
            data-dialog-body=""
            className="flex-1 overflow-auto px-5 py-4 focus:outline-2 focus:-outline-offset-2 focus:outline-accent"
            {...(scrollable ? { tabIndex: 0, role: 'region', 'aria-labelledby': titleId } : {})}
          >
            {children}
          </div>
          {footer && <div className="flex justify-end gap-2 border-t border-line px-5 py-3">{footer}</div>}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The confirmation dialog of row actions (title Warning!, danger style). `busy`: the confirmed work is
 * running; both buttons say so (aria-disabled, so the focus stays on them) and do nothing until it ends.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = 'Yes',
  danger = true,
  busy = false,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const unlessBusy = (act: () => void) => () => {
    if (!busy) act();
  };
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && !busy && onCancel()}
      title={title}
      dismissable={false}
      footer={
        <>
          <Button onClick={unlessBusy(onCancel)} aria-disabled={busy || undefined}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={unlessBusy(onConfirm)} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p className="text-sm">{message}</p>
      {children}
    </Modal>
  );
}

export function FieldRow({ label, htmlFor, error, required, children }: { label: string; htmlFor: string; error?: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium text-ink">
        <label htmlFor={htmlFor}>{label}</label>
        {required && (
          <span aria-hidden="true" className="text-red-600">
            {' '}
            *
          </span>
        )}
      </span>
      {children}
      {error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400" id={`${htmlFor}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export const inputClass =
  'w-full rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm text-ink placeholder:text-ink-soft focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 disabled:bg-muted read-only:bg-muted';
