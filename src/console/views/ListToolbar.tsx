/**
 * Toolbar actions and notices of a list (src/definitions/toolbar.ts): buttons that make one call for the
 * list as a whole, with an optional confirmation and toasts, and the lines the reply carries.
 */
import { useState } from 'react';
import type { SessionUser, WholeReply } from '../../definitions/definitions';
import type { ListNotices, ToolbarAction, ToolbarContext } from '../../definitions/toolbar';
import { hasPermission } from '../../domain/permissions';
import { callApi } from '../request';
import { toast } from '../ui/toast';
import { Button, ConfirmDialog } from '../ui/primitives';

/** The toolbar actions a user sees now: permission held and predicate true. */
export function visibleToolbarActions(actions: readonly ToolbarAction[], ctx: ToolbarContext, user: SessionUser): ToolbarAction[] {
  return actions.filter((a) => hasPermission(user.permissions, a.permission) && (!a.when || a.when(ctx)));
}

export function ListToolbar({ actions, ctx, user, onDone }: { actions: readonly ToolbarAction[]; ctx: ToolbarContext; user: SessionUser; onDone: () => void }) {
  const [running, setRunning] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ToolbarAction | null>(null);
  const shown = visibleToolbarActions(actions, ctx, user);

  async function run(a: ToolbarAction, confirmed: boolean) {
    setConfirming(null);
    setRunning(a.id);
    try {
      const res = await callApi(a.call, a.body({ ...ctx, confirmed }) as Record<string, never>);
      if (res.ok) {
        toast('success', a.success);
        onDone();
      } else {
        toast('warning', a.failure({ statusCode: res.statusCode, code: res.data?.code }));
      }
    } finally {
      setRunning(null);
    }
  }

  function start(a: ToolbarAction) {
    if (a.confirm && a.confirm.when(ctx)) setConfirming(a);
    else void run(a, false);
  }

  if (shown.length === 0 && !confirming) return null;
  const lines = confirming?.confirm?.lines?.(ctx) ?? [];
  return (
    <div className="flex flex-wrap items-center gap-2">
      {shown.map((a) => (
        <Button key={a.id} variant="primary" onClick={() => start(a)} disabled={running !== null} aria-busy={running === a.id || undefined}>
          {running === a.id ? (
            <>
              <span className="h-3.5 w-3.5 animate-spin rounded-full border-2 border-white border-t-transparent" aria-hidden="true" />
              {a.busyLabel ?? a.label}
            </>
          ) : (
            a.label
          )}
        </Button>
      ))}
      {confirming?.confirm && (
        <ConfirmDialog
          open
          title={confirming.confirm.title}
          message={confirming.confirm.message}
          danger={false}
          confirmLabel={confirming.confirm.confirmLabel}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void run(confirming, true)}
        >
          {lines.length > 0 && (
            <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-ink-soft">
              {lines.map((l, i) => (
                <li key={i}>{l}</li>
              ))}
            </ul>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The reply's notices: a warning with a heading when `alert` says so, else a quiet list. */
export function ListNoticesView({ notices, reply }: { notices: ListNotices; reply: WholeReply | undefined }) {
  if (!reply) return null;
  const lines = notices.lines(reply);
  const alert = notices.alert?.(reply);
  if (!alert && lines.length === 0) return null;
  return alert ? (
    <div role="alert" className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100">
      <p className="font-semibold">{alert}</p>
      {lines.length > 0 && (
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      )}
    </div>
  ) : (
    <section aria-label="Messages" className="rounded-md border border-line bg-surface px-4 py-2 text-sm text-ink-soft">
      <ul className="list-disc space-y-0.5 pl-5">
        {lines.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
    </section>
  );
}
