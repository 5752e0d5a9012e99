/**
 * Row actions: one runtime function decides which actions a row shows (permission and guard), and one
 * component runs them (navigate, call with confirm or comment, or a modal of the entry's registry).
 */
import { Suspense, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { RowAction, SessionUser } from '../../definitions/definitions';
import { hasAnyPermission, hasPermission } from '../../domain/permissions';
import { callApi, failureMessage } from '../request';
import { toast } from '../ui/toast';
import { Button, ConfirmDialog, LockIcon, inputClass } from '../ui/primitives';
import { RowImagesModal } from './RowImagesModal';
import { businessTimeZone } from '../businessTime';
import { useBusinessDay } from '../businessDay';
import { useRegistries } from '../registries';

/** The actions a user may take on a row: permission (or one of `anyOf`) held and guard true. */
export function visibleActions<Row>(actions: readonly RowAction<Row>[], row: Row, user: SessionUser): RowAction<Row>[] {
  return actions.filter(
    (a) => (hasPermission(user.permissions, a.permission) || hasAnyPermission(user.permissions, a.anyOf ?? [])) && (!a.when || a.when({ row, user, timeZone: businessTimeZone() })),
  );
}

/** The reasons (`whyNot`) of the actions whose permission the user holds but whose guard refuses this row. */
export function refusalReasons<Row>(actions: readonly RowAction<Row>[], row: Row, user: SessionUser): string[] {
  return actions
    .filter((a) => a.whyNot && a.when && (hasPermission(user.permissions, a.permission) || hasAnyPermission(user.permissions, a.anyOf ?? [])) && !a.when({ row, user, timeZone: businessTimeZone() }))
    .map((a) => a.whyNot!);
}

/** The actions a locked row still shows beside its lock. */
export function actionsOnLockedRow<Row>(actions: readonly RowAction<Row>[], row: Row, user: SessionUser): RowAction<Row>[] {
  return visibleActions(actions, row, user).filter((a) => a.showWhenLocked);
}

function labelOf<Row>(a: RowAction<Row>, row: Row): string {
  return typeof a.label === 'function' ? a.label(row) : a.label;
}

/**
 * The buttons of a row's actions. `marks` (default true): the lock of a locked row and the "No action"
 * mark of a row left with none; off for a column that shows one action of its own (e.g. Images).
 */
export function RowActions<Row>({
  actions,
  row,
  user,
  locked,
  reload,
  marks = true,
}: {
  actions: readonly RowAction<Row>[];
  row: Row;
  user: SessionUser;
  locked: boolean;
  reload: () => void;
  marks?: boolean;
}) {
  const navigate = useNavigate();
  const { rowModals } = useRegistries();
  const [active, setActive] = useState<RowAction<Row> | null>(null);
  // drawn again at the business zone's midnight: guards that read "today" (Void or Refund) follow the day
  useBusinessDay();
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | null>(null);
  const shown = locked ? actionsOnLockedRow(actions, row, user) : visibleActions(actions, row, user);
  // an open row left with no action although the user holds the permissions: say why, not an empty cell
  const whyNone = marks && !locked && shown.length === 0 ? refusalReasons(actions, row, user) : [];

  async function runCall(a: RowAction<Row>) {
    if (a.run.kind !== 'call') return;
    const run = a.run;
    if (run.input) {
      const c = comment.trim();
      if (!c) {
        setCommentError(run.input.requiredMessage);
        return;
      }
    }
    setActive(null);
    const res = await callApi(run.call, run.body(row, { comment: comment.trim() }) as Record<string, never>);
    setComment('');
    if (res.ok) toast('success', run.success(row, res.data));
    else toast('warning', run.serverMessage === false ? run.failure : (failureMessage(res) ?? run.failure));
    // success or failure, the server may have changed the row (a failed payment stores its attempt): reload it
    reload();
  }

  function start(a: RowAction<Row>) {
    if (a.run.kind === 'navigate') {
      void navigate({ to: a.run.to(row) });
      return;
    }
    setCommentError(null);
    setComment('');
    if (a.run.kind === 'call' && !a.run.confirm && !a.run.input) {
      void runCall(a);
      return;
    }
    setActive(a);
  }

  const ActiveModal = active?.run.kind === 'modal' ? rowModals[active.run.modal] : undefined;
  const callRun = active?.run.kind === 'call' ? active.run : null;
  const imagesRun = active?.run.kind === 'images' ? active.run : null;

  return (
    <span className="flex flex-nowrap items-center gap-1">
      {marks && locked && <LockIcon />}
      {whyNone.length > 0 && (
        <span className="inline-flex items-center gap-1 text-xs text-ink-soft" title={whyNone.join(' ')} data-why-no-action>
          <span aria-hidden="true">⊘</span> No action<span className="sr-only">: {whyNone.join(' ')}</span>
        </span>
      )}
      {shown.map((a) => (
        <Button key={a.id} variant="ghost" className="px-2 py-0.5" onClick={() => start(a)}>
          {labelOf(a, row)}
        </Button>
      ))}
      {/* its own boundary: a lazy modal loading must not hide the screen (and the button that opened it, which
          then could not get the focus back) behind the route's fallback */}
      {ActiveModal && (
        <Suspense fallback={null}>
          <ActiveModal row={row as Record<string, unknown>} close={() => setActive(null)} reload={reload} />
        </Suspense>
      )}
      {imagesRun && <RowImagesModal title={imagesRun.title} images={imagesRun.images} row={row as Record<string, unknown>} close={() => setActive(null)} />}
      {active && callRun && (
        <ConfirmDialog
          open
          title={callRun.confirm?.title ?? labelOf(active, row)}
          message={callRun.confirm?.message(row) ?? ''}
          danger={callRun.confirm?.danger ?? true}
          confirmLabel={callRun.input ? 'Submit' : 'Yes'}
          onCancel={() => setActive(null)}
          onConfirm={() => void runCall(active)}
        >
          {callRun.input && (
            <div className="mt-3 flex flex-col gap-1">
              <label htmlFor="row-action-comment" className="text-sm font-medium">
                {callRun.input.label}
              </label>
              <textarea id="row-action-comment" className={inputClass} maxLength={callRun.input.maxLength} value={comment} onChange={(e) => setComment(e.target.value)} />
              {commentError && (
                <p role="alert" className="text-xs text-red-700">
                  {commentError}
                </p>
              )}
            </div>
          )}
        </ConfirmDialog>
      )}
    </span>
  );
}
