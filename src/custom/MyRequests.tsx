/**
 * My requests: the signed-in user's own change requests, newest first, with the area, the
 * record, when, and the outcome (pending, approved, rejected with the reason, withdrawn, expired).
 * A pending request can be withdrawn, which unlocks its record.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { myChangeRequests, withdrawChangeRequest, type ChangeRequestSummary } from '../api/approvals';
import { callApi, failureMessage } from '../console/request';
import { toast } from '../console/ui/toast';
import { Button, ConfirmDialog, Loader, Tag } from '../console/ui/primitives';
import { formatDateTime } from '../console/format';
import { PageHeader } from '../console/views/PageHeader';
import { ActionTag, outcomeTone } from '../console/views/ApprovalModal';

const screen = { title: 'My requests', breadcrumb: [{ label: 'My requests' }] };

/** The outcome in words, as the maker reads it. */
export function outcomeText(r: Pick<ChangeRequestSummary, 'status' | 'decidedBy'>): string {
  switch (r.status) {
    case 'PENDING':
      return 'Pending';
    case 'APPROVED':
      return `Approved by ${r.decidedBy ?? 'a checker'}`;
    case 'REJECTED':
      return `Rejected by ${r.decidedBy ?? 'a checker'}`;
    case 'WITHDRAWN':
      return 'Withdrawn';
    case 'EXPIRED':
      return 'Expired';
  }
}

export default function MyRequests() {
  const queryClient = useQueryClient();
  const [withdrawing, setWithdrawing] = useState<ChangeRequestSummary | null>(null);
  const { data, isLoading, isError } = useQuery({
    queryKey: ['myRequests'],
    queryFn: async () => {
      const res = await callApi(myChangeRequests, {});
      if (!res.ok) throw new Error(failureMessage(res) ?? 'Could not load your requests');
      return res.data;
    },
  });
  const requests = data?.requests ?? [];

  async function withdraw(r: ChangeRequestSummary) {
    setWithdrawing(null);
    const res = await callApi(withdrawChangeRequest, { changeRequestID: r.changeRequestId });
    if (res.ok) toast('success', `Request #${r.changeRequestId} withdrawn`);
    else toast('warning', `Withdrawal failed! ${failureMessage(res) ?? ''}`.trim());
    await queryClient.invalidateQueries({ queryKey: ['myRequests'] });
    await queryClient.invalidateQueries({ queryKey: ['menuCounts'] });
  }

  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={screen} />
      {isLoading ? (
        <Loader />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-700">
          Your requests could not be loaded.
        </p>
      ) : requests.length === 0 ? (
        <p className="rounded-md border border-line bg-surface p-6 text-sm text-ink-soft">You have made no change requests.</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-line bg-surface">
          {data && data.total > requests.length && (
            <p className="border-b border-line px-3 py-2 text-sm text-ink-soft" data-testid="my-requests-cut">
              The newest {requests.length.toLocaleString('en-US')} of your {data.total.toLocaleString('en-US')} requests.
            </p>
          )}
          <table className="w-full text-sm" aria-label="My requests">
            <thead>
              <tr className="border-b border-line text-left">
                <th className="px-3 py-2">#</th>
                <th className="px-3 py-2">Area</th>
                <th className="px-3 py-2">Action</th>
                <th className="px-3 py-2">Record</th>
                <th className="px-3 py-2">Requested</th>
                <th className="px-3 py-2">Outcome</th>
                <th className="px-3 py-2">Reason / comment</th>
                <th className="px-3 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.changeRequestId} data-request={r.changeRequestId} className="border-b border-line/60 align-top">
                  <td className="px-3 py-2 tabular-nums">{r.changeRequestId}</td>
                  <td className="px-3 py-2">{r.type}</td>
                  <td className="px-3 py-2">
                    <ActionTag request={r} />
                  </td>
                  <td className="px-3 py-2">{r.record}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(r.requestedTime)}</td>
                  <td className="px-3 py-2">
                    <Tag tone={outcomeTone[r.status]}>{outcomeText(r)}</Tag>
                    {r.decidedTime && r.status !== 'PENDING' && <div className="mt-0.5 text-xs text-ink-soft">{formatDateTime(r.decidedTime)}</div>}
                  </td>
                  <td className="px-3 py-2">{r.comment ?? <span className="text-ink-soft">-</span>}</td>
                  <td className="px-3 py-2 text-right">
                    {r.status === 'PENDING' && (
                      <Button variant="ghost" onClick={() => setWithdrawing(r)}>
                        Withdraw
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={withdrawing !== null}
        title="Withdraw the request?"
        message={
          withdrawing
            ? `Withdraw request #${withdrawing.changeRequestId} (${withdrawing.operation ?? withdrawing.pendingAction} of ${withdrawing.type} ${withdrawing.record})? Its record is unlocked.`
            : ''
        }
        confirmLabel="Withdraw"
        onConfirm={() => withdrawing && void withdraw(withdrawing)}
        onCancel={() => setWithdrawing(null)}
      />
    </div>
  );
}
