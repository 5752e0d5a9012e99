/** The collapsible change-request panel of list screens: pending requests, 5 per page, View opens the approval modal. */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChangeRequest } from '../../api/contract';
import type { ChangeRequestPanel as PanelDef } from '../../definitions/definitions';
import { callApi, failureMessage } from '../request';
import { toast } from '../ui/toast';
import { Button, Tag } from '../ui/primitives';
import { formatDateTime } from '../format';
import { actionTone, ApprovalModal } from './ApprovalModal';
import { recordTitleOf } from '../changeRequestDiff';

const PAGE_SIZE = 5;

export function ChangeRequestPanel({ def, requests, onDecided }: { def: PanelDef; requests: ChangeRequest[]; onDecided: () => void }) {
  const [open, setOpen] = useState(true);
  const [page, setPage] = useState(0);
  const [viewing, setViewing] = useState<ChangeRequest | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const pages = Math.max(1, Math.ceil(requests.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = requests.slice(current * PAGE_SIZE, current * PAGE_SIZE + PAGE_SIZE);

  async function decide(actionTaken: 'approve' | 'reject', comment: string) {
    if (!viewing) return;
    setBusy(true);
    const res = await callApi(def.approve, { changeRequestID: viewing.changeRequestId, actionTaken, ...(comment ? { comment } : {}) });
    setBusy(false);
    const verb = actionTaken === 'approve' ? 'approved' : 'rejected';
    if (res.ok) {
      toast('success', `${def.entity} ${verb} successfully`);
      setViewing(null);
      // the menu's Approvals count follows at once
      void queryClient.invalidateQueries({ queryKey: ['menuCounts'] });
      onDecided();
    } else {
      const msg = failureMessage(res);
      toast('warning', msg ? `${def.entity} ${verb} failed! ${msg}` : `${def.entity} ${verb} failed!`);
    }
  }

  return (
    <section className="rounded-md border border-line bg-surface" aria-label="Change Requests">
      <h2>
        <button type="button" className="flex w-full items-center justify-between px-4 py-2 text-left text-sm font-semibold" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span>
            Change Requests <Tag tone={requests.length ? 'yellow' : 'gray'}>{requests.length}</Tag>
          </span>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
      </h2>
      {open && (
        <div className="border-t border-line px-4 py-2">
          {requests.length === 0 ? (
            <p className="py-2 text-sm text-ink-soft">No pending change requests.</p>
          ) : (
            <>
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left">
                    <th className="px-2 py-1">#</th>
                    <th className="px-2 py-1">Record</th>
                    <th className="px-2 py-1">Pending Action</th>
                    <th className="px-2 py-1">Requested By</th>
                    <th className="px-2 py-1">Requested Time</th>
                    <th className="px-2 py-1">
                      <span className="sr-only">View</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((r, i) => (
                    <tr key={r.changeRequestId} className="border-t border-line/60">
                      <td className="px-2 py-1">{current * PAGE_SIZE + i + 1}</td>
                      <td className="px-2 py-1 font-medium">{recordTitleOf(r)}</td>
                      <td className="px-2 py-1">
                        <Tag tone={actionTone[r.pendingAction]}>{r.pendingAction}</Tag>
                      </td>
                      <td className="px-2 py-1">{r.requestedBy}</td>
                      <td className="px-2 py-1">{formatDateTime(r.requestedTime)}</td>
                      <td className="px-2 py-1 text-right">
                        <Button variant="ghost" onClick={() => setViewing(r)}>
                          View
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {pages > 1 && (
                <div className="flex items-center justify-end gap-2 py-1 text-sm">
                  <Button onClick={() => setPage(current - 1)} disabled={current === 0} aria-label="Previous requests">
                    ‹
                  </Button>
                  <span>
                    {current + 1} / {pages}
                  </span>
                  <Button onClick={() => setPage(current + 1)} disabled={current >= pages - 1} aria-label="Next requests">
                    ›
                  </Button>
                </div>
              )}
            </>
          )}
        </div>
      )}
      {viewing && <ApprovalModal request={viewing} busy={busy} onApprove={(c) => void decide('approve', c)} onReject={(c) => void decide('reject', c)} onClose={() => setViewing(null)} />}
    </section>
  );
}
