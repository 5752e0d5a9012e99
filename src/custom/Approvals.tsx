/**
 * The approvals inbox: every pending change request the signed-in user may decide, across
 * all areas, oldest first, a page at a time (the server pages, filters and counts: nothing is cut
 * without saying so), with the area, the record, the maker, the age and the changed fields; filters
 * by area, maker (by account) and age; View opens the approval modal; several can be selected and approved
 * or rejected with one comment (each decided on its own, the outcome of each listed). While it is
 * open, the list and the menu's counts follow the server's announcements (server-sent events).
 * `?request=<id>` (the command palette's "Approve next") opens that request's approval modal.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalInbox, decideChangeRequest, decideManyChangeRequests, type ChangeRequestSummary } from '../api/approvals';
import { callApi, failureMessage } from '../console/request';
import { onChangeRequestEvent } from '../console/changeRequestEvents';
import { toast } from '../console/ui/toast';
import { Button, FieldRow, inputClass, Loader, Tag } from '../console/ui/primitives';
import { formatDateTime } from '../console/format';
import { PageHeader } from '../console/views/PageHeader';
import { ActionTag, ApprovalModal, CommentField, commentProblem } from '../console/views/ApprovalModal';
import { APPROVALS_REQUEST_PARAM } from '../console/commandPalette';

const screen = { title: 'Approvals', breadcrumb: [{ label: 'Approvals' }] };

/** The age filter's choices, in hours. */
const AGES = [
  { label: 'Any age', hours: 0 },
  { label: 'Older than 1 hour', hours: 1 },
  { label: 'Older than 1 day', hours: 24 },
  { label: 'Older than 3 days', hours: 72 },
] as const;

/** A request's age in words: minutes, hours or days. */
export function ageText(requestedTime: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - new Date(requestedTime).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

type Outcome = { changeRequestId: number; statusCode: number; message: string };

/** How many requests a page of the inbox shows. */
const PAGE_SIZE = 100;

/** The maker filter's value: an account (`id:3`) or, for a request whose maker is no known account, the name it was made under. */
function makerFilter(value: string): { requestedById: number } | { requestedBy: string } | Record<string, never> {
  if (value.startsWith('id:')) return { requestedById: Number(value.slice(3)) };
  if (value.startsWith('name:')) return { requestedBy: value.slice(5) };
  return {};
}

export default function Approvals() {
  const queryClient = useQueryClient();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const [area, setArea] = useState(typeof search.type === 'string' ? search.type : '');
  const [maker, setMaker] = useState('');
  const [minAgeHours, setMinAgeHours] = useState(0);
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [viewing, setViewing] = useState<ChangeRequestSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const ids = { area: useId(), maker: useId(), age: useId(), comment: useId() };
  // live while the inbox is open: each announced change reloads the list and the menu's counts
  useEffect(
    () =>
      onChangeRequestEvent(() => {
        void queryClient.invalidateQueries({ queryKey: ['approvalInbox'] });
        void queryClient.invalidateQueries({ queryKey: ['menuCounts'] });
      }),
    [queryClient],
  );

  const { data, isLoading, isError, isPlaceholderData } = useQuery({
    queryKey: ['approvalInbox', area, maker, minAgeHours, offset],
    queryFn: async () => {
      const res = await callApi(approvalInbox, { ...(area ? { type: area } : {}), ...makerFilter(maker), ...(minAgeHours ? { minAgeHours } : {}), offset, limit: PAGE_SIZE });
      if (!res.ok) throw new Error(failureMessage(res) ?? 'Could not load the inbox');
      return res.data;
    },
    placeholderData: (previous) => previous,
  });
  // the request the URL names (?request=12): its modal opens once the inbox holds it, on the first page
  // of every request (filters cleared); one no longer pending is said so
  const navigate = useNavigate();
  const asked = Number(search[APPROVALS_REQUEST_PARAM]) || undefined;
  const handled = useRef<number | undefined>(undefined);
  const forgetAsked = () => {
    if (search[APPROVALS_REQUEST_PARAM] === undefined) return;
    void navigate({ to: '.', replace: true, search: (({ [APPROVALS_REQUEST_PARAM]: _named, ...rest }: Record<string, unknown>) => rest) as never });
  };
  useEffect(() => {
    if (!asked || handled.current === asked || !data || isPlaceholderData) return;
    const request = data.requests.find((r) => r.changeRequestId === asked);
    if (!request && (area || maker || minAgeHours || offset)) {
      setArea('');
      setMaker('');
      setMinAgeHours(0);
      setOffset(0);
      return;
    }
    handled.current = asked;
    if (request) setViewing(request);
    else {
      toast('warning', `Request #${asked} is no longer waiting for your decision.`);
      forgetAsked();
    }
  }, [asked, data, isPlaceholderData, area, maker, minAgeHours, offset]);
  const closeViewing = () => {
    setViewing(null);
    forgetAsked();
  };
  // the makers offered by the filter: of every request the user may decide (the server counts them before the filter)
  const makers = useMemo(() => (data?.makers ?? []).map((m) => ({ value: m.id === null ? `name:${m.username}` : `id:${m.id}`, label: `${m.username} (${m.count})` })), [data]);
  const requests = data?.requests ?? [];
  const total = data?.total ?? 0;
  // a filter change starts again at the first page
  const filterBy =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setOffset(0);
    };
  const shownSelected = requests.filter((r) => selected.has(r.changeRequestId)).map((r) => r.changeRequestId);
  const now = Date.now();

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: ['approvalInbox'] });
    await queryClient.invalidateQueries({ queryKey: ['menuCounts'] });
  }

  async function decideOne(actionTaken: 'approve' | 'reject', text: string) {
    if (!viewing) return;
    setBusy(true);
    const res = await callApi(decideChangeRequest, { changeRequestID: viewing.changeRequestId, actionTaken, ...(text ? { comment: text } : {}) });
    setBusy(false);
    const verb = actionTaken === 'approve' ? 'approved' : 'rejected';
    if (res.ok) {
      // the server's own words: 'Role approved successfully', or what an approved money action did
      toast('success', res.data.message || `${viewing.type} ${verb} successfully`);
      closeViewing();
    } else {
      toast('warning', `${viewing.type} ${verb} failed! ${failureMessage(res) ?? ''}`.trim());
    }
    await refresh();
  }

  async function decideSelected(actionTaken: 'approve' | 'reject') {
    const problem = commentProblem(comment, actionTaken);
    setCommentError(problem);
    if (problem) {
      document.getElementById(ids.comment)?.focus();
      return;
    }
    setBusy(true);
    const res = await callApi(decideManyChangeRequests, { changeRequestIDs: shownSelected, actionTaken, ...(comment.trim() ? { comment: comment.trim() } : {}) });
    setBusy(false);
    if (res.ok) {
      setOutcomes(res.data.results);
      const done = res.data.results.filter((r) => r.statusCode === 200).length;
      toast(done === res.data.results.length ? 'success' : 'warning', `${done} of ${res.data.results.length} requests ${actionTaken === 'approve' ? 'approved' : 'rejected'}`);
      setSelected(new Set());
      setComment('');
    } else {
      toast('warning', `Bulk decision failed! ${failureMessage(res) ?? ''}`.trim());
    }
    await refresh();
  }

  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allShownSelected = requests.length > 0 && shownSelected.length === requests.length;

  // more match than one page shows: where this page is in them, above and below the table
  const pager = (where: 'top' | 'bottom') => (
    <div
      className={`flex items-center justify-end gap-2 border-line px-3 py-2 text-sm ${where === 'top' ? 'border-b' : 'border-t'}`}
      role="navigation"
      aria-label={`Pages of the approvals (${where})`}
    >
      <span data-testid={`inbox-range-${where}`} aria-live={where === 'top' ? 'polite' : undefined}>
        {offset + 1}–{offset + requests.length} of {total.toLocaleString('en-US')}
      </span>
      <Button onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))} disabled={offset === 0}>
        Previous
      </Button>
      <Button onClick={() => setOffset(offset + PAGE_SIZE)} disabled={offset + requests.length >= total}>
        Next
      </Button>
    </div>
  );

  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={screen} />
      <div className="flex flex-wrap items-end gap-3 rounded-md border border-line bg-surface p-3" role="search" aria-label="Filter the approvals">
        <FieldRow label="Area" htmlFor={ids.area}>
          <select id={ids.area} className={inputClass} value={area} onChange={(e) => filterBy(setArea)(e.target.value)}>
            <option value="">All areas</option>
            {(data?.counts ?? []).map((c) => (
              <option key={c.type} value={c.type}>
                {c.type} ({c.count})
              </option>
            ))}
          </select>
        </FieldRow>
        <FieldRow label="Maker" htmlFor={ids.maker}>
          <select id={ids.maker} className={inputClass} value={maker} onChange={(e) => filterBy(setMaker)(e.target.value)}>
            <option value="">Anyone</option>
            {makers.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </FieldRow>
        <FieldRow label="Age" htmlFor={ids.age}>
          <select id={ids.age} className={inputClass} value={minAgeHours} onChange={(e) => filterBy(setMinAgeHours)(Number(e.target.value))}>
            {AGES.map((a) => (
              <option key={a.hours} value={a.hours}>
                {a.label}
              </option>
            ))}
          </select>
        </FieldRow>
      </div>

      {isLoading ? (
        <Loader />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-700">
          The approvals could not be loaded.
        </p>
      ) : requests.length === 0 ? (
        <p className="rounded-md border border-line bg-surface p-6 text-sm text-ink-soft">No pending requests for you to decide.</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-line bg-surface">
          {total > requests.length && pager('top')}
          <table className="w-full text-sm" aria-label="Pending requests">
            <thead>
              <tr className="border-b border-line text-left">
                <th className="px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label="Select all"
                    checked={allShownSelected}
                    onChange={() => setSelected(allShownSelected ? new Set() : new Set(requests.map((r) => r.changeRequestId)))}
                  />
                </th>
                <th className="px-3 py-2">Area</th>
                <th className="px-3 py-2">Action</th>
                <th className="px-3 py-2">Record</th>
                <th className="px-3 py-2">Maker</th>
                <th className="px-3 py-2">Age</th>
                <th className="px-3 py-2">Changed fields</th>
                <th className="px-3 py-2">
                  <span className="sr-only">View</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.changeRequestId} data-request={r.changeRequestId} className="border-b border-line/60 align-top">
                  <td className="px-3 py-2">
                    <input type="checkbox" aria-label={`Select request #${r.changeRequestId}`} checked={selected.has(r.changeRequestId)} onChange={() => toggle(r.changeRequestId)} />
                  </td>
                  <td className="px-3 py-2">{r.type}</td>
                  <td className="px-3 py-2">
                    <ActionTag request={r} />
                  </td>
                  <td className="px-3 py-2">{r.record}</td>
                  <td className="px-3 py-2">{r.requestedBy}</td>
                  <td className="px-3 py-2 whitespace-nowrap tabular-nums" title={formatDateTime(r.requestedTime)}>
                    {ageText(r.requestedTime, now)}
                  </td>
                  <td className="px-3 py-2">{r.changedFields.join(', ')}</td>
                  <td className="px-3 py-2 text-right">
                    <Button variant="ghost" onClick={() => setViewing(r)} aria-label={`View request #${r.changeRequestId}`}>
                      View
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {total > requests.length && pager('bottom')}
        </div>
      )}

      {shownSelected.length > 0 && (
        <section aria-label="Decide the selected requests" className="flex flex-col gap-2 rounded-md border border-line bg-surface p-3">
          <p className="text-sm font-medium">{shownSelected.length} selected</p>
          <CommentField
            id={ids.comment}
            label="Comment for all (required to reject: the reason)"
            value={comment}
            error={commentError}
            onChange={(v) => {
              setComment(v);
              setCommentError(undefined);
            }}
          />
          <div className="flex gap-2">
            <Button variant="success" disabled={busy} onClick={() => void decideSelected('approve')}>
              Approve selected
            </Button>
            <Button variant="danger" disabled={busy} onClick={() => void decideSelected('reject')}>
              Reject selected
            </Button>
          </div>
        </section>
      )}

      {outcomes && (
        <section aria-label="Outcome of the bulk decision" className="rounded-md border border-line bg-surface p-3 text-sm">
          <h2 className="mb-1 font-semibold">Outcome</h2>
          <ul>
            {outcomes.map((o) => (
              <li key={o.changeRequestId} data-outcome={o.changeRequestId}>
                Request #{o.changeRequestId}: <Tag tone={o.statusCode === 200 ? 'green' : 'red'}>{o.statusCode === 200 ? 'Done' : 'Refused'}</Tag> {o.message}
              </li>
            ))}
          </ul>
        </section>
      )}

      {viewing && <ApprovalModal request={viewing} busy={busy} onApprove={(c) => void decideOne('approve', c)} onReject={(c) => void decideOne('reject', c)} onClose={closeViewing} />}
    </div>
  );
}
