/** The checker's workbench and the maker's side: src/server/approvals.ts does the work. */
import { approvalCounts, approvalInbox, changeRequestHistory, decideChangeRequest, decideManyChangeRequests, myChangeRequests, withdrawChangeRequest } from '../../api/approvals';
import { decidableCounts, decideAny, decideMany, expireStaleRequests, inbox, myRequests, requestHistory, withdrawRequest } from '../approvals';
import { handle } from '../http/handle';
import { changeRequestAreas } from '../../domain/approvals';

export const approvalHandlers = [
  handle(myChangeRequests, async (ctx, { status }) => {
    await expireStaleRequests(ctx);
    return { data: await myRequests(ctx, status) };
  }),
  handle(withdrawChangeRequest, async (ctx, { changeRequestID }) => ({ data: await withdrawRequest(ctx, changeRequestID) })),
  handle(approvalInbox, async (ctx, filter) => {
    await expireStaleRequests(ctx);
    return { data: await inbox(ctx, filter) };
  }),
  handle(approvalCounts, async (ctx) => {
    const counts = await decidableCounts(ctx);
    return { data: { counts, total: counts.reduce((n, c) => n + c.count, 0) } };
  }),
  handle(decideChangeRequest, async (ctx, decision) => ({ data: await decideAny(ctx, decision) }), { decides: changeRequestAreas.map((a) => a.type) }),
  handle(
    decideManyChangeRequests,
    async (ctx, { changeRequestIDs, actionTaken, comment }) => ({
      data: { results: await decideMany(ctx, changeRequestIDs, actionTaken, comment) },
    }),
    { decides: changeRequestAreas.map((a) => a.type) },
  ),
  handle(changeRequestHistory, async (ctx, { changeRequestID }) => ({ data: { history: await requestHistory(ctx, changeRequestID) } })),
];
