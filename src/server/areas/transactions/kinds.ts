/**
 * The transaction kinds as the server knows them, one entry per kind: its table, the columns its
 * lists' search text matches by prefix, the row schema the finder (src/server/areas/finder.ts)
 * returns, and its part of the demo data (src/server/seed/transactions.ts). The lists, the
 * dashboards, the finder and the seeder read this one registry; a new kind is one entry here.
 */
import type { z } from 'zod';
import { ceftFindRow } from '../../../api/finder';
import { billRow, eChannellingRow, insuranceRow, thyagaRow } from '../../../api/transactions';
import { transactionKinds, type TransactionKind } from '../../../domain/transactionStatus';

export interface TransactionKindSpec {
  readonly kind: TransactionKind;
  readonly table: string;
  /** Columns the search text matches by prefix (each has a text_pattern_ops index). */
  readonly search: readonly string[];
  /** The row schema of the finder's matches of this kind. */
  readonly findRow: z.ZodObject;
  /** The demo seeder: this kind's share of the transactions, and its random stream's number. */
  readonly seed: { readonly share: number; readonly stream: number };
}

export const transactionKindSpecs: Readonly<Record<TransactionKind, TransactionKindSpec>> = {
  ceft: { kind: 'ceft', table: 'ceft_transactions', search: ['uid', 'trace', 'account_number'], findRow: ceftFindRow, seed: { share: 0.55, stream: 1 } },
  bill: { kind: 'bill', table: 'bill_transactions', search: ['uid', 'trace', 'account_number'], findRow: billRow, seed: { share: 0.25, stream: 2 } },
  echannelling: { kind: 'echannelling', table: 'echannelling_transactions', search: ['uid', 'trace'], findRow: eChannellingRow, seed: { share: 0.08, stream: 3 } },
  thyaga: { kind: 'thyaga', table: 'thyaga_transactions', search: ['uid', 'trace'], findRow: thyagaRow, seed: { share: 0.07, stream: 4 } },
  insurance: { kind: 'insurance', table: 'insurance_transactions', search: ['uid'], findRow: insuranceRow, seed: { share: 0.05, stream: 5 } },
};

/** The kinds in their order (send money first). */
export const transactionKindList: readonly TransactionKindSpec[] = transactionKinds.map((k) => transactionKindSpecs[k]);
