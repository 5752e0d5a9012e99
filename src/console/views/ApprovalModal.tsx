/**
 * The approval modal of the change-request panel and the approvals inbox: the record type, a tag of
 * the pending action, each field's new value beside the old one (old struck through), the earlier
 * requests on the same record with their outcome and reasons, and a comment: optional to approve,
 * required (the reason) to reject, at most 200 characters. It cannot be dismissed by a click outside.
 */
import { useEffect, useId, useState } from 'react';
import { formatDateTime } from '../format';
import type { ChangeRequest, RecordField } from '../../api/contract';
import { changeRequestHistory, type ChangeRequestSummary } from '../../api/approvals';
import { COMMENT_MAX, COMMENT_TOO_LONG_MESSAGE, REASON_REQUIRED_MESSAGE } from '../../domain/approvals';
import { callApi } from '../request';
import { Button, FieldRow, inputClass, Modal, Tag, type TagTone } from '../ui/primitives';
import { imageUrl, PLACEHOLDER_IMAGE } from './cells';

/** How a request's outcome is tagged. */
export const outcomeTone: Record<ChangeRequestSummary['status'], TagTone> = { PENDING: 'yellow', APPROVED: 'green', REJECTED: 'red', WITHDRAWN: 'gray', EXPIRED: 'gray' };

/** The comment's problem for this decision, or undefined: a reject needs a reason; at most 200 characters. */
export function commentProblem(comment: string, action: 'approve' | 'reject'): string | undefined {
  if (comment.length > COMMENT_MAX) return COMMENT_TOO_LONG_MESSAGE;
  if (action === 'reject' && comment.trim() === '') return REASON_REQUIRED_MESSAGE;
  return undefined;
}

/** A reason or comment field with its error and a character count; shared by the modal and the inbox's bulk bar. */
export function CommentField({ id, value, onChange, error, label }: { id: string; value: string; onChange: (v: string) => void; error?: string; label: string }) {
  return (
    <FieldRow label={label} htmlFor={id} error={error}>
      <textarea
        id={id}
        rows={2}
        className={inputClass}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-count`}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id={`${id}-count`} className="self-end text-xs text-ink-soft">
        {value.length} / {COMMENT_MAX}
      </span>
    </FieldRow>
  );
}

function History({ request }: { request: ChangeRequest }) {
  const [history, setHistory] = useState<ChangeRequestSummary[] | null>(null);
  useEffect(() => {
    let live = true;
    void callApi(changeRequestHistory, { changeRequestID: request.changeRequestId }).then((res) => live && setHistory(res.ok ? res.data.history : []));
    return () => {
      live = false;
    };
  }, [request.changeRequestId]);
  if (!history || history.length === 0) return null;
  return (
    <section aria-label="History" className="mt-4 border-t border-line pt-3">
      <h3 className="mb-2 text-sm font-semibold">History of this record</h3>
      <ul className="space-y-1 text-sm">
        {history.map((h) => (
          <li key={h.changeRequestId} data-history={h.changeRequestId} className="flex flex-wrap items-center gap-2">
            <Tag tone={actionTone[h.pendingAction]}>{h.pendingAction}</Tag>
            <Tag tone={outcomeTone[h.status]}>{h.status}</Tag>
            <span className="text-ink-soft">
              by {h.requestedBy}, {formatDateTime(h.requestedTime)}
              {h.decidedBy ? `; decided by ${h.decidedBy}` : ''}
            </span>
            {h.comment && <span className="italic">“{h.comment}”</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Fields never shown in the comparison. */
export const HIDDEN_FIELDS = new Set(['id', 'created_at', 'updated_at', 'locked']);

export const actionTone: Record<ChangeRequest['pendingAction'], TagTone> = { CREATE: 'green', EDIT: 'yellow', DELETE: 'red' };

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function Img({ path }: { path: unknown }) {
  return <img src={imageUrl(path) ?? PLACEHOLDER_IMAGE} alt="" className="h-[70px] w-auto rounded border border-line object-contain" onError={(e) => ((e.target as HTMLImageElement).src = PLACEHOLDER_IMAGE)} />;
}

function statusOf(disabled: unknown): string {
  return Number(disabled) === 0 ? 'Active' : 'Inactive';
}

/** A list of rows (e.g. a provider's currencies): one table, old values shown beside changed ones. */
function RowsValue({ value, old }: { value: Record<string, unknown>[]; old: Record<string, unknown>[] | undefined }) {
  const keys = Array.from(new Set(value.flatMap((r) => Object.keys(r)))).filter((k) => !HIDDEN_FIELDS.has(k) && k !== 'provider_bank_code');
  const keyOf = (r: Record<string, unknown>) => String(r.currency_code ?? r.id ?? JSON.stringify(r));
  const oldByKey = new Map((old ?? []).map((r) => [keyOf(r), r]));
  const header = (k: string) => (k === 'disabled' ? 'status' : k);
  const show = (k: string, v: unknown) => (k === 'disabled' ? statusOf(v) : String(v ?? ''));
  return (
    <table className="w-full text-sm">
      <thead>
        <tr>
          {keys.map((k) => (
            <th key={k} className="border-b border-line px-2 py-1 text-left font-semibold">
              {header(k)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {value.map((r, i) => {
          const o = oldByKey.get(keyOf(r));
          return (
            <tr key={i} className="border-b border-line/50">
              {keys.map((k) => (
                <td key={k} className="px-2 py-1 tabular-nums">
                  {show(k, r[k])}
                  {o && !same(o[k], r[k]) && <span className="ml-2 text-ink-soft line-through">{show(k, o[k])}</span>}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Value({ field }: { field: RecordField | undefined }) {
  if (!field) return <span className="text-ink-soft">-</span>;
  const v = field.value;
  switch (field.type) {
    case 'IMAGE':
      return <Img path={v} />;
    case 'IMAGE_ARRAY':
      return (
        <span className="flex flex-wrap gap-2">
          {(Array.isArray(v) ? v : []).map((p, i) => (
            <Img key={i} path={typeof p === 'object' && p ? (p as { image?: unknown }).image : p} />
          ))}
        </span>
      );
    case 'STRING_ARRAY':
      return (
        <span className="flex flex-wrap gap-1">
          {(Array.isArray(v) ? v : []).map((s, i) => (
            <Tag key={i} tone="blue">
              {String(s)}
            </Tag>
          ))}
        </span>
      );
    default:
      if (Array.isArray(v) && v.every((x) => typeof x === 'object' && x)) return null;
      return <span className="break-all">{v === null || v === undefined || v === '' ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v)}</span>;
  }
}

export function ApprovalModal({
  request,
  busy,
  onApprove,
  onReject,
  onClose,
}: {
  request: ChangeRequest;
  busy: boolean;
  /** Called with the comment (trimmed; '' when none) once it is valid. */
  onApprove: (comment: string) => void;
  onReject: (reason: string) => void;
  onClose: () => void;
}) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | undefined>();
  const commentId = useId();
  const decide = (action: 'approve' | 'reject') => {
    const problem = commentProblem(comment, action);
    setError(problem);
    if (problem) {
      document.getElementById(commentId)?.focus();
      return;
    }
    (action === 'approve' ? onApprove : onReject)(comment.trim());
  };
  const original = request.originalRecord ?? {};
  const names = Array.from(new Set([...Object.keys(request.newRecord), ...Object.keys(original)])).filter((k) => !HIDDEN_FIELDS.has(k));
  return (
    <Modal
      open
      wide
      dismissable={false}
      onOpenChange={(o) => !o && onClose()}
      title={
        <span className="flex items-center gap-2">
          {request.type} <Tag tone={actionTone[request.pendingAction]}>{request.pendingAction}</Tag>
        </span>
      }
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Close
          </Button>
          <Button variant="danger" onClick={() => decide('reject')} disabled={busy}>
            Reject
          </Button>
          <Button variant="success" onClick={() => decide('approve')} disabled={busy}>
            Approve
          </Button>
        </>
      }
    >
      <p className="mb-3 text-xs text-ink-soft">
        Requested by <strong className="text-ink">{request.requestedBy}</strong> at {formatDateTime(request.requestedTime)}
      </p>
      <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
        {names.map((name) => {
          const next = request.newRecord[name];
          const prev = original[name];
          const header = next?.header ?? prev?.header ?? name;
          const rows = Array.isArray(next?.value) && (next.value as unknown[]).every((x) => typeof x === 'object' && x) && next.type === 'STRING';
          const changed = request.pendingAction === 'EDIT' && prev && !same(prev.value, next?.value);
          return (
            <div key={name} className="contents" data-field={name}>
              <dt className="font-medium text-ink-soft">{header}</dt>
              <dd className="min-w-0">
                {rows ? (
                  <RowsValue value={next.value as Record<string, unknown>[]} old={prev?.value as Record<string, unknown>[] | undefined} />
                ) : (
                  <span className="flex flex-wrap items-center gap-3">
                    <span data-new>
                      <Value field={next} />
                    </span>
                    {changed && (
                      <span data-old className="text-ink-soft line-through" aria-label={`was ${typeof prev.value === 'string' ? prev.value : ''}`}>
                        <Value field={prev} />
                      </span>
                    )}
                  </span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <History request={request} />
      <div className="mt-4">
        <CommentField
          id={commentId}
          label="Comment (optional to approve; the reason, required to reject)"
          value={comment}
          error={error}
          onChange={(v) => {
            setComment(v);
            if (error) setError(commentProblem(v, v.trim() === '' && error === REASON_REQUIRED_MESSAGE ? 'reject' : 'approve'));
          }}
        />
      </div>
    </Modal>
  );
}
