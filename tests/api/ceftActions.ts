/** The four send-money row actions as an API client calls them (the bodies spec 001 gives each). */
import type { ApiClient, ApiReply } from './harness';

export type CeftAction = 'hold' | 'manualFundTransfer' | 'void' | 'refund';
export const CEFT_ACTIONS: readonly CeftAction[] = ['hold', 'manualFundTransfer', 'void', 'refund'];

export interface CeftRowRef {
  id: number;
  trace: string;
}

/** The body of an action on a row: hold by id, manual transfer by trace, void and refund by transaction id. */
export function ceftActionBody(action: CeftAction, row: CeftRowRef) {
  if (action === 'hold') return { id: row.id, description: '' };
  if (action === 'manualFundTransfer') return { trace: row.trace };
  return { transactionID: row.id };
}

/** Calls the action on the row as the token's user. */
export const callCeftAction = (client: ApiClient, action: CeftAction, row: CeftRowRef, token: string): Promise<ApiReply> =>
  client.call(`Transaction/ceft/${action}`, ceftActionBody(action, row), token);
