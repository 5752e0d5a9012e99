/** The controls beyond maker-checker itself: the activity log check (src/server/activityLogChain.ts), the large money actions' approvals (src/server/moneyApprovals.ts). */
import { moneyApprovalApprove, moneyApprovalList, sodReport, verifyActivityLogCall } from '../../api/controls';
import { segregationReport } from '../segregation';
import { decideMoneyApproval, MONEY_ENTITY, pendingMoneyApprovals } from '../moneyApprovals';
import { manualFundTransferRefusal, refundRefusal, voidRefusal } from '../../domain/transactionGuards';
import { verifyActivityLog } from '../activityLogChain';
import { handle, type Handler } from '../http/handle';

export const controlHandlers: readonly Handler[] = [
  handle(verifyActivityLogCall, async (ctx) => {
    const report = await verifyActivityLog(ctx.db);
    await ctx.log({
      level: report.ok ? 'INFO' : 'WARN',
      type: 'ACTIVITY_LOG_VERIFIED',
      description: report.ok
        ? `Verified the activity log hash chain: ${report.checked} entries intact (head ${report.headSeq} ${report.headHash})`
        : `Verified the activity log hash chain: broken, ${report.firstBreak!.message}`,
    });
    return { data: report };
  }),
  handle(moneyApprovalList, async (ctx) => ({ data: await pendingMoneyApprovals(ctx) })),
  handle(moneyApprovalApprove, async (ctx, body) => ({ data: await decideMoneyApproval(ctx, body) }), { guards: [manualFundTransferRefusal, voidRefusal, refundRefusal], decides: [MONEY_ENTITY] }),
  handle(sodReport, async (ctx, { threshold, days }) => ({ data: await segregationReport(ctx.db, ctx.clock(), threshold, days) })),
];
