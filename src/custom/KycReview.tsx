/**
 * The KYC review modal (spec 002 §2 "KYC User Information", §4, §5, §7, §8): full screen, titled KYC
 * Information with the UID and status tags; the current submission with a switch and a reject reason
 * per field (groups switch together), and the earlier submission beside it, read-only, when there is
 * one. Approve is offered only when every field is approved, Reject otherwise; both confirm first.
 * Beside an earlier submission, the fields whose value changed are marked in both columns, and a
 * "Changed only" checkbox, with the count of changed fields, hides the unchanged ones.
 */
import { useId, useMemo, useState } from 'react';
import { kycCreateRequest, kycUpdateStatus, type KycRow } from '../api/kyc';
import { callApi } from '../console/request';
import { useSession } from '../console/session';
import type { RowModalProps } from '../console/registries';
import { approvalTone } from '../console/views/cells';
import { formatDateTime } from '../console/format';
import { toast } from '../console/ui/toast';
import { Button, ConfirmDialog, Modal, Tag } from '../console/ui/primitives';
import { hasPermission } from '../domain/permissions';
import { canApprove, decisionCall, kycMessages, missingReasons, showsEarlierSubmission, type KycData } from '../domain/kyc';
import { changedKycFields } from '../domain/kycChanges';
import { KycSubmission, type KycComparison } from './kyc/KycFields';

/** How long the success toast shows before the list reloads. */
const RELOAD_AFTER_MS = 1500;
const REJECT_TOAST_MS = 6000;

export default function KycReview({ row: raw, close, reload }: RowModalProps) {
  const row = raw as unknown as KycRow;
  const user = useSession();
  const [data, setData] = useState<KycData>(row.currentData);
  const [invalidKeys, setInvalidKeys] = useState<ReadonlySet<string>>(new Set());
  const [confirm, setConfirm] = useState<'approve' | 'reject' | null>(null);
  const [busy, setBusy] = useState(false);
  const [changedOnly, setChangedOnly] = useState(false);
  const toggleId = useId();

  const mayDecide = !!user && hasPermission(user.permissions, 'kyc-approve') && row.status === 'PENDING';
  const showEarlier = showsEarlierSubmission(row);
  const approvable = canApprove(data);
  const call = decisionCall(row);

  const earlier = showEarlier ? row.submittedData : null;
  // values never change during a review (only approvals and reasons do): compare once
  const changed = useMemo(() => new Set(changedKycFields(row.currentData, earlier)), [row.currentData, earlier]);
  const currentComparison: KycComparison | undefined = earlier ? { changed, earlier, changedOnly, keepShown: invalidKeys } : undefined;
  const earlierComparison: KycComparison | undefined = earlier ? { changed, changedOnly, keepShown: invalidKeys } : undefined;

  const stillInvalid = useMemo(() => new Set([...invalidKeys].filter((k) => missingReasons(data).includes(k))), [invalidKeys, data]);

  function startReject() {
    const missing = missingReasons(data);
    if (missing.length > 0) {
      setInvalidKeys(new Set(missing));
      toast('danger', kycMessages.reasonRequired, REJECT_TOAST_MS);
      return;
    }
    setConfirm('reject');
  }

  async function submit() {
    setConfirm(null);
    setBusy(true);
    const res = call === 'create-request' ? await callApi(kycCreateRequest, { userId: row.kycId, kycData: data }) : await callApi(kycUpdateStatus, { kycId: row.kycId, kycData: data });
    setBusy(false);
    if (res.ok) {
      toast('success', call === 'create-request' ? kycMessages.created : kycMessages.updated, RELOAD_AFTER_MS);
      close();
      setTimeout(reload, RELOAD_AFTER_MS);
      return;
    }
    if (call === 'create-request') {
      toast('warning', kycMessages.createFailed);
    } else {
      toast('warning', kycMessages.updateFailed);
      close();
    }
  }

  const title = (
    <span className="flex flex-wrap items-center gap-2">
      KYC Information
      <Tag tone="blue">UID: {row.uid}</Tag>
      <Tag tone={approvalTone(row.status)}>{row.status}</Tag>
    </span>
  );

  const footer = (
    <>
      <Button onClick={close} disabled={busy}>
        Cancel
      </Button>
      {mayDecide &&
        (approvable ? (
          <Button variant="success" onClick={() => setConfirm('approve')} disabled={busy}>
            Approve
          </Button>
        ) : (
          <Button variant="danger" onClick={startReject} disabled={busy}>
            Reject
          </Button>
        ))}
    </>
  );

  return (
    <>
      <Modal open full dismissable={false} onOpenChange={(o) => !o && close()} title={title} footer={footer}>
        <p className="mb-4 text-sm text-ink-soft">
          {row.first_name} {row.last_name} · {row.email} · {row.phone_no}
          {row.reviewedBy && row.reviewedAt && (
            <>
              {' '}
              · Reviewed by <strong className="text-ink">{row.reviewedBy}</strong> at {formatDateTime(row.reviewedAt)}
            </>
          )}
          {!mayDecide && !row.reviewedBy && ' · Read-only: you may view this submission but not decide it.'}
        </p>
        {earlier && (
          <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-kyc-changes>
            <label htmlFor={toggleId} className="inline-flex min-h-7 cursor-pointer items-center gap-2 rounded-md pr-1 font-medium text-ink">
              <input
                id={toggleId}
                type="checkbox"
                className="h-4 w-4 accent-accent-fill focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
                checked={changedOnly}
                onChange={(e) => setChangedOnly(e.target.checked)}
              />
              Changed only
            </label>
            <span role="status" className="text-ink-soft" data-changed-count>
              {changed.size} changed
              {changedOnly && changed.size > 0 ? ' · unchanged fields hidden' : ''}
            </span>
          </div>
        )}
        {earlier && changedOnly && changed.size === 0 && invalidKeys.size === 0 && <p className="mb-4 text-sm text-ink-soft">No field differs from the earlier submission.</p>}
        <div className={`grid gap-6 ${showEarlier ? 'xl:grid-cols-2' : ''}`}>
          <div className="flex flex-col gap-3" data-submission="current">
            <h2 className="text-base font-semibold">
              Current Submission <span className="text-xs font-normal text-ink-soft">updated {formatDateTime(row.updated_at)}</span>
            </h2>
            <KycSubmission data={data} readOnly={!mayDecide} invalidKeys={stillInvalid} onChange={setData} comparison={currentComparison} />
          </div>
          {showEarlier && row.submittedData && (
            <div className="flex flex-col gap-3 rounded-md bg-muted/50 p-3" data-submission="earlier">
              <h2 className="text-base font-semibold">
                Earlier Submission <span className="text-xs font-normal text-ink-soft">read-only</span>
              </h2>
              <KycSubmission data={row.submittedData} readOnly prefix="Earlier " comparison={earlierComparison} />
            </div>
          )}
        </div>
      </Modal>
      <ConfirmDialog
        open={confirm === 'approve'}
        title={kycMessages.approveTitle}
        message={kycMessages.approveText}
        danger={false}
        confirmLabel="Approve"
        onCancel={() => setConfirm(null)}
        onConfirm={() => void submit()}
      />
      <ConfirmDialog
        open={confirm === 'reject'}
        title={kycMessages.rejectTitle}
        message={kycMessages.rejectText}
        confirmLabel="Reject"
        onCancel={() => setConfirm(null)}
        onConfirm={() => void submit()}
      />
    </>
  );
}
