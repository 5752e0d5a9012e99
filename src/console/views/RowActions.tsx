/**
 * Row actions: one runtime function decides which actions a row shows (permission and guard), and one
 * component runs them (navigate, call with confirm or comment, or a modal of the entry's registry).
 *
 * A confirmation stays open while its call runs (its buttons then do nothing, so a double click acts
 * once). A success closes it; a failure shows the server's message in a toast, and a confirmation that
 * asked for a text stays open with the message and the text as typed, so nothing typed is lost. Closing
 * it gives the focus back to the button that opened it (the dialog frame, src/console/ui/primitives.tsx).
 */
import { Suspense, useId, useRef, useState, type Ref } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { ActionInput, ConfirmSummary, RowAction, SessionUser } from '../../definitions/definitions';
import { hasAnyPermission, hasPermission } from '../../domain/permissions';
import { callApi, failureMessage } from '../request';
import { toast } from '../ui/toast';
import { Button, ConfirmDialog, LockIcon, inputClass } from '../ui/primitives';
import { RowImagesModal } from './RowImagesModal';
import { MenuButton } from '../ui/MenuButton';
import { businessTimeZone } from '../businessTime';
import { useBusinessDay } from '../businessDay';
import { useRegistries } from '../registries';
import { confirmAboutOf } from '../confirmAbout';

/** How many of a row's actions a table row shows as buttons; the rest are in its 'More actions' menu. */
export const INLINE_ACTIONS = 2;

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

/** Why a typed text cannot be sent, or null: blank when required, longer than the limit. */
export function inputProblem(input: ActionInput, text: string): string | null {
  const t = text.trim();
  if (input.requiredMessage && !t) return input.requiredMessage;
  if (t.length > input.maxLength) return input.tooLongMessage ?? `${input.label} can have at most ${input.maxLength} characters`;
  return null;
}

/** A confirmation's summary: the facts as a list of labels and values, then what will happen. */
function SummaryView({ summary }: { summary: ConfirmSummary }) {
  return (
    <div className="mt-3 rounded-md border border-line bg-muted/60 px-3 py-2" data-confirm-summary="">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-0.5 text-sm">
        {summary.facts.map((f) => (
          <div key={f.label} className="contents">
            <dt className="text-ink-soft">{f.label}</dt>
            <dd className="min-w-0 break-words font-medium tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-sm" data-confirm-effect="">
        {summary.effect}
      </p>
    </div>
  );
}

/** The text box a call asks for: label, the text, a counter when the limit is checked on send, and its problem. */
function InputBox({ input, value, onChange, problem, boxRef }: { input: ActionInput; value: string; onChange: (v: string) => void; problem: string | null; boxRef: Ref<HTMLTextAreaElement> }) {
  const id = useId();
  const counted = input.tooLongMessage !== undefined;
  const length = value.trim().length;
  const described = [counted ? `${id}-count` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="mt-3 flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {input.label}
      </label>
      <textarea
        id={id}
        ref={boxRef}
        rows={3}
        className={inputClass}
        {...(counted ? {} : { maxLength: input.maxLength })}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {counted && (
        <p id={`${id}-count`} className={`text-right text-xs tabular-nums ${length > input.maxLength ? 'text-red-700 dark:text-red-400' : 'text-ink-soft'}`}>
          {length}/{input.maxLength} characters
        </p>
      )}
      {problem && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * The buttons of a row's actions. `marks` (default true): the lock of a locked row and the "No action"
 * mark of a row left with none; off for a column that shows one action of its own (e.g. Images).
 * `bar`: drawn as full buttons (the row drawer's action bar: danger actions in the danger style), else
 * as compact links fitting a table row (danger actions in the danger colour).
 */
export function RowActions<Row>({
  actions,
  row,
  user,
  locked,
  reload,
  marks = true,
  bar = false,
}: {
  actions: readonly RowAction<Row>[];
  row: Row;
  user: SessionUser;
  locked: boolean;
  reload: () => void;
  marks?: boolean;
  bar?: boolean;
}) {
  const navigate = useNavigate();
  const { rowModals } = useRegistries();
  const [active, setActive] = useState<RowAction<Row> | null>(null);
  // drawn again at the business zone's midnight: guards that read "today" (Void or Refund) follow the day
  useBusinessDay();
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement | null>(null);
  const shown = locked ? actionsOnLockedRow(actions, row, user) : visibleActions(actions, row, user);
  // an open row left with no action although the user holds the permissions: say why, not an empty cell
  const whyNone = marks && !locked && shown.length === 0 ? refusalReasons(actions, row, user) : [];

  async function runCall(a: RowAction<Row>) {
    if (a.run.kind !== 'call' || busy) return;
    const run = a.run;
    if (run.input) {
      const problem = inputProblem(run.input, comment);
      setCommentError(problem);
      if (problem) {
        box.current?.focus();
        return;
      }
    }
    setBusy(true);
    setFailure(null);
    const res = await callApi(run.call, run.body(row, { comment: comment.trim() }) as Record<string, never>);
    setBusy(false);
    if (res.ok) {
      setActive(null);
      setComment('');
      toast('success', run.success(row, res.data));
    } else {
      const message = run.serverMessage === false ? run.failure : (failureMessage(res) ?? run.failure);
      toast('warning', message);
      // what was typed stays, with the reason it was not taken; a plain confirmation closes
      if (run.input) {
        setFailure(message);
        box.current?.focus();
      } else setActive(null);
    }
    // success or failure, the server may have changed the row (a failed payment stores its attempt): reload it
    reload();
  }

  function start(a: RowAction<Row>) {
    if (a.run.kind === 'navigate') {
      void navigate({ to: a.run.to(row) });
      return;
    }
    setCommentError(null);
    setFailure(null);
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
  const about = callRun?.confirm?.about ? confirmAboutOf(callRun.confirm.about, row) : undefined;

  return (
    <span className={`flex items-center ${bar ? 'flex-wrap gap-2' : 'flex-nowrap gap-1'}`}>
      {marks && locked && <LockIcon />}
      {whyNone.length > 0 && (
        <span className="inline-flex items-center gap-1 text-xs text-ink-soft" title={whyNone.join(' ')} data-why-no-action>
          <span aria-hidden="true">⊘</span> No action<span className="sr-only">: {whyNone.join(' ')}</span>
        </span>
      )}
      {(bar ? shown : shown.slice(0, INLINE_ACTIONS)).map((a) =>
        bar ? (
          <Button key={a.id} variant={a.tone === 'danger' ? 'danger' : 'secondary'} data-tone={a.tone} onClick={() => start(a)}>
            {labelOf(a, row)}
          </Button>
        ) : (
          <Button key={a.id} variant={a.tone === 'danger' ? 'dangerGhost' : 'ghost'} data-tone={a.tone} className="px-2 py-0.5" onClick={() => start(a)}>
            {labelOf(a, row)}
          </Button>
        ),
      )}
      {/* in a table row, past two actions the rest go in a menu, so the Action column stays narrow */}
      {!bar && shown.length > INLINE_ACTIONS && (
        <MenuButton
          variant="ghost"
          className="px-2 py-0.5"
          label={<span aria-hidden="true">⋯</span>}
          ariaLabel="More actions"
          groups={[shown.slice(INLINE_ACTIONS).map((a) => ({ id: a.id, label: labelOf(a, row), danger: a.tone === 'danger', run: () => start(a) }))]}
        />
      )}
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
          confirmLabel={about?.verb ?? (callRun.input ? 'Submit' : 'Yes')}
          busy={busy}
          onCancel={() => !busy && setActive(null)}
          onConfirm={() => void runCall(active)}
        >
          {about && <SummaryView summary={about.summary} />}
          {callRun.input && <InputBox input={callRun.input} value={comment} onChange={setComment} problem={commentError} boxRef={box} />}
          {failure && (
            <p role="alert" className="mt-3 rounded-md border border-red-600/40 bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200" data-action-failure="">
              {failure}
            </p>
          )}
        </ConfirmDialog>
      )}
    </span>
  );
}
