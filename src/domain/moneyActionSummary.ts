/**
 * What a send-money action's confirmation says besides the specification's sentence (spec 001 §8):
 * the transaction, its amount and currency, whose money it is, one line saying what the server will
 * do (src/server/areas/transactions/actions.ts), and the confirm button's verb with the amount.
 * Pure: the screens (screens/transactions.ts) hand these to the runtime's confirmation dialog.
 */
import { formatMoney } from './amounts';

export type MoneyAction = 'hold' | 'manualFundTransfer' | 'void' | 'refund';

/** The fields of a send-money row the summary reads (the operational row names the bank, the auditor's gives its code). */
export interface MoneyActionRow {
  readonly id: number;
  readonly trace: string;
  readonly uid: string;
  readonly currency_code: string;
  readonly amount: number;
  readonly account_number: string;
  readonly bank_name?: string;
  readonly bank_code?: string;
  readonly ceft_try_count: number;
  readonly refund_commission: number | null;
}

export interface SummaryFact {
  readonly label: string;
  readonly value: string;
}

/** The summary under the sentence: facts (label and value) and what will happen. */
export interface MoneyActionSummary {
  readonly facts: readonly SummaryFact[];
  readonly effect: string;
}

/** The amount and currency of the row, as the console writes amounts: '1,234.56 USD'. */
export function moneyOf(row: Pick<MoneyActionRow, 'amount' | 'currency_code'>): string {
  return formatMoney(row.amount, row.currency_code);
}

/** The beneficiary's account and bank as the row has them. */
function beneficiaryOf(row: MoneyActionRow): string {
  const bank = row.bank_name || (row.bank_code ? `bank code ${row.bank_code}` : '');
  return bank ? `${row.account_number} at ${bank}` : row.account_number;
}

/** The one line saying what the action does to the money (what the server's handler and the payment network do). */
function effectOf(action: MoneyAction, row: MoneyActionRow): string {
  switch (action) {
    case 'hold':
      return 'The payout to the beneficiary is stopped and the transaction shows HOLD; no money moves. A manual fund transfer can still pay it later.';
    case 'manualFundTransfer':
      return `The payout is sent again by CEFT to account ${beneficiaryOf(row)} (try ${row.ceft_try_count + 1}).`;
    case 'void':
      return "Today's card payment is cancelled at the card gateway: the customer is not charged, and no payout can follow.";
    case 'refund': {
      const commission = row.refund_commission ?? 0;
      return commission > 0
        ? `The card payment is refunded to the customer's card, less the ${commission}% refund commission the service keeps; no payout can follow.`
        : "The card payment is refunded in full to the customer's card; no payout can follow.";
    }
  }
}

/** The summary of `action` on `row`: transaction, amount, customer, beneficiary, and what will happen. */
export function moneyActionSummary(action: MoneyAction, row: MoneyActionRow): MoneyActionSummary {
  return {
    facts: [
      { label: 'Tran ID', value: String(row.id) },
      { label: 'Trace', value: row.trace },
      { label: 'Amount', value: moneyOf(row) },
      { label: 'Customer (NIC/Passport)', value: row.uid },
      { label: 'Beneficiary account', value: beneficiaryOf(row) },
    ],
    effect: effectOf(action, row),
  };
}

/** The confirm button: the verb, with the amount where money moves ('Refund 1,234.56 USD', 'Hold transaction'). */
export function moneyActionVerb(action: MoneyAction, row: Pick<MoneyActionRow, 'amount' | 'currency_code'>): string {
  switch (action) {
    case 'hold':
      return 'Hold transaction';
    case 'manualFundTransfer':
      return `Retry fund transfer ${moneyOf(row)}`;
    case 'void':
      return `Void ${moneyOf(row)}`;
    case 'refund':
      return `Refund ${moneyOf(row)}`;
  }
}
