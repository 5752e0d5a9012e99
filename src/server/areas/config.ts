/** The console's configuration call (src/api/config.ts): any signed-in user may read it. */
import { consoleConfig } from '../../api/config';
import { handle } from '../http/handle';

export const configHandlers = [handle(consoleConfig, async (ctx) => ({ data: { businessTimeZone: ctx.businessTimeZone, moneyActionApprovalAboveUsd: ctx.moneyApprovalAboveUsd } }))];
