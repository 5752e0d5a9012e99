/**
 * Toasts: a tiny global store and the regions that show them.
 *
 * - Success and info go away after 4 s; a failure (warning, danger) stays until its close button is
 *   pressed, so it cannot vanish before it is read. A duration the specification names (the KYC reject
 *   reason's 6 s) is kept as given.
 * - Every toast's timer pauses while the pointer is over it or focus is in it (WCAG 2.2.1).
 * - Two live regions, present before any toast so screen readers watch them: success and info are
 *   announced politely (role=status), failures at once (role=alert).
 * - They sit at the bottom right, clear of the header's buttons (theme, user menu).
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';

export type ToastKind = 'success' | 'warning' | 'danger' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** null: stays until dismissed. */
  durationMs: number | null;
}

const DEFAULT_MS = 4000;
const isFailure = (kind: ToastKind) => kind === 'warning' || kind === 'danger';

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows a message; returns its id (for `dismiss`: a form dismisses its own failures once it succeeds). */
export function toast(kind: ToastKind, message: string, durationMs?: number): number {
  const t: Toast = { id: nextId++, kind, message, durationMs: durationMs ?? (isFailure(kind) ? null : DEFAULT_MS) };
  toasts = [...toasts, t];
  emit();
  return t.id;
}

export function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

const kindClass: Record<ToastKind, string> = {
  success: 'border-emerald-600 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  warning: 'border-amber-500 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  danger: 'border-red-600 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100',
  info: 'border-sky-600 bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
};

/** One toast: counts down its time only while neither hovered nor focused. */
function ToastItem({ t }: { t: Toast }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const left = useRef(t.durationMs);
  const paused = hovered || focused;
  useEffect(() => {
    if (left.current === null || paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismiss(t.id), left.current);
    return () => {
      clearTimeout(timer);
      if (left.current !== null) left.current = Math.max(0, left.current - (Date.now() - started));
    };
  }, [paused, t.id]);
  return (
    <div
      data-toast={t.kind}
      data-paused={paused ? '' : undefined}
      className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 px-4 py-3 text-sm shadow-lg ${kindClass[t.kind]}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setFocused(false)}
    >
      <span className="flex-1">{t.message}</span>
      <button type="button" className="rounded px-1 opacity-70 hover:opacity-100 focus:opacity-100 focus:outline-2 focus:outline-current" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
        ×
      </button>
    </div>
  );
}

export function Toasts() {
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
    () => toasts,
  );
  return (
    <div className="pointer-events-none fixed bottom-4 right-4 z-[100] flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2" data-toasts="">
      <div role="alert" aria-live="assertive" className="flex flex-col gap-2">
        {list
          .filter((t) => isFailure(t.kind))
          .map((t) => (
            <ToastItem key={t.id} t={t} />
          ))}
      </div>
      <div role="status" aria-live="polite" className="flex flex-col gap-2">
        {list
          .filter((t) => !isFailure(t.kind))
          .map((t) => (
            <ToastItem key={t.id} t={t} />
          ))}
      </div>
    </div>
  );
}
