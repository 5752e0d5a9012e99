/** Toasts: a tiny global store and the region that shows them (aria-live, so screen readers hear them). */
import { useSyncExternalStore } from 'react';

export type ToastKind = 'success' | 'warning' | 'danger' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function toast(kind: ToastKind, message: string, durationMs = 4000) {
  const t = { id: nextId++, kind, message };
  toasts = [...toasts, t];
  emit();
  setTimeout(() => dismiss(t.id), durationMs);
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
    <div className="pointer-events-none fixed right-4 top-16 z-[100] flex w-96 flex-col gap-2" aria-live="polite" role="status">
      {list.map((t) => (
        <div key={t.id} data-toast={t.kind} className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 px-4 py-3 text-sm shadow-lg ${kindClass[t.kind]}`}>
          <span className="flex-1">{t.message}</span>
          <button type="button" className="opacity-60 hover:opacity-100" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
