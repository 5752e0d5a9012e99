/**
 * The approval modal of the change-request panel and the approvals inbox: the record type, a tag of
 * the pending action, the comparison of the record's old and new values (./ChangeComparison.tsx),
 * the earlier requests on the same record with their outcome and reasons, and a comment: optional to
 * approve, required (the reason) to reject, at most 200 characters. It cannot be dismissed by a click
 * outside.
 */
import { useEffect, useId, useState } from 'react';
import { formatDateTime } from '../format';
import type { ChangeRequest } from '../../api/contract';
import { changeRequestHistory, type ChangeRequestSummary } from '../../api/approvals';
import { COMMENT_MAX, COMMENT_TOO_LONG_MESSAGE, REASON_REQUIRED_MESSAGE } from '../../domain/approvals';
import { callApi } from '../request';
import { Button, FieldRow, inputClass, Modal, Tag, type TagTone } from '../ui/primitives';
import { ChangeComparison } from './ChangeComparison';

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
            <ActionTag request={h} />
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
export { HIDDEN_FIELDS } from '../changeRequestDiff';

export const actionTone: Record<ChangeRequest['pendingAction'], TagTone> = { CREATE: 'green', EDIT: 'yellow', DELETE: 'red' };

/** A request's action as a tag: its named operation when it has one (REFUND, VOID, PASSWORD RESET, ...), else CREATE/EDIT/DELETE. */
export function ActionTag({ request }: { request: Pick<ChangeRequest, 'pendingAction'> & { operation?: string | null } }) {
  return <Tag tone={actionTone[request.pendingAction]}>{request.operation ? request.operation.toUpperCase() : request.pendingAction}</Tag>;
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
  return (
    <Modal
      open
      wide
      dismissable={false}
      onOpenChange={(o) => !o && onClose()}
      title={
        <span className="flex items-center gap-2">
          {request.type} <ActionTag request={request} />
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
      <ChangeComparison request={request} />
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
