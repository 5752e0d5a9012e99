/**
 * The approval modal of the change-request panel: the record type, a tag of the pending action, and
 * the comparison of the record's old and new values (./ChangeComparison.tsx). It cannot be dismissed
 * by a click outside.
 */
import { formatDateTime } from '../format';
import type { ChangeRequest } from '../../api/contract';
import { Button, Modal, Tag, type TagTone } from '../ui/primitives';
import { ChangeComparison } from './ChangeComparison';

/** Fields never shown in the comparison. */
export { HIDDEN_FIELDS } from '../changeRequestDiff';

export const actionTone: Record<ChangeRequest['pendingAction'], TagTone> = { CREATE: 'green', EDIT: 'yellow', DELETE: 'red' };

export function ApprovalModal({
  request,
  busy,
  onApprove,
  onReject,
  onClose,
}: {
  request: ChangeRequest;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
  onClose: () => void;
}) {
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
          <Button variant="danger" onClick={onReject} disabled={busy}>
            Reject
          </Button>
          <Button variant="success" onClick={onApprove} disabled={busy}>
            Approve
          </Button>
        </>
      }
    >
      <p className="mb-3 text-xs text-ink-soft">
        Requested by <strong className="text-ink">{request.requestedBy}</strong> at {formatDateTime(request.requestedTime)}
      </p>
      <ChangeComparison request={request} />
    </Modal>
  );
}
