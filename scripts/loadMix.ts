/**
 * The load mix of `npm run load` (scripts/load.ts) and `npm run cluster -- --chaos` (scripts/cluster.ts):
 * which calls, how often, what each may answer, and the body of each, in one place.
 */
export type Kind = 'list' | 'filter' | 'export' | 'log-export' | 'approve' | 'money';

/** Each kind's share of the requests, in percent (`npm run load`; the chaos run adds `money`, MONEY_WEIGHTS). */
export const WEIGHTS: [Kind, number][] = [
  ['list', 35],
  ['filter', 30],
  ['export', 8],
  ['log-export', 7],
  ['approve', 20],
];

/** The mix with money actions (LoadMixInput.moneyTransactions): a tenth of the requests move money. */
export const MONEY_WEIGHTS: [Kind, number][] = [
  ['list', 32],
  ['filter', 27],
  ['export', 7],
  ['log-export', 6],
  ['approve', 18],
  ['money', 10],
];

/**
 * The statuses each call may answer; anything else is an error. A money action answers 200 when the
 * network did it, 422 when the network declined it or the guards refused it (another action on the
 * transaction succeeded first), 409 while another action holds the row.
 */
export const EXPECTED: Record<Kind, number[]> = { list: [200], filter: [200], export: [200], 'log-export': [200], approve: [200, 409], money: [200, 409, 422] };

export interface LoadMixInput {
  /** yyyy-MM-dd of today and of a week ago (the list and filter ranges). */
  readonly today: string;
  readonly weekAgo: string;
  /** Countries with send-money rows in the last week (the filter picks one). */
  readonly countries: readonly string[];
  /** The pending role change requests the approves walk through, round and round. */
  readonly firstRequest: number;
  readonly lastRequest: number;
  /** The file name each log-export names. */
  readonly logExportFileName: () => string;
  /**
   * Send-money transactions whose card payment succeeded and whose money has not moved: each `money`
   * request takes the next one for a manual fund transfer; every fourth asks instead for a refund of
   * the transaction whose transfer was asked last (a race the guards and the database must settle: at
   * most one of them moves money). Unset: no money actions (WEIGHTS).
   */
  readonly moneyTransactions?: readonly { readonly id: number; readonly trace: string }[];
}

/** A request of the mix: its call, its body, and what it refers to (approve: the change request; log-export: the file name; money: the transaction). */
export interface MixRequest {
  readonly path: string;
  readonly body: unknown;
  readonly ref?: string | number;
}

/** `pick`: a kind drawn by WEIGHTS; `bodyOf`: the request of a kind (approves take the next change request). */
export function loadMix(input: LoadMixInput): { pick: () => Kind; bodyOf: (kind: Kind) => MixRequest } {
  const { today, weekAgo, countries, firstRequest, lastRequest } = input;
  const money = input.moneyTransactions ?? [];
  const weights = money.length > 0 ? MONEY_WEIGHTS : WEIGHTS;
  const statuses = ['', 'SUCCESS', 'FAILED', 'PENDING'];
  const total = weights.reduce((s, [, w]) => s + w, 0);
  let nextRequest = firstRequest;
  let moneyNo = 0;
  let nextMoney = 0;
  const pick = (): Kind => {
    let x = Math.random() * total;
    for (const [k, w] of weights) if ((x -= w) < 0) return k;
    return 'list';
  };
  const today0 = `${today}T00:00:01`;
  const todayEnd = `${today}T23:59:00`;
  const bodyOf = (kind: Kind): MixRequest => {
    switch (kind) {
      case 'list':
        return { path: 'Transaction/get-ceftTransaction', body: { from_date: today0, to_date: todayEnd, country_code: '', data: '', status: '', fetchCount: 10 } };
      case 'filter':
        return {
          path: 'Transaction/get-ceftTransaction',
          body: {
            from_date: `${weekAgo}T00:00:01`,
            to_date: todayEnd,
            country_code: countries[Math.floor(Math.random() * countries.length)] ?? '',
            data: String(Math.floor(Math.random() * 90) + 10),
            status: statuses[Math.floor(Math.random() * statuses.length)],
            fetchCount: 25,
          },
        };
      case 'export':
        return { path: 'Transaction/get-ceftTransaction', body: { from_date: today0, to_date: todayEnd, country_code: '', data: '', status: '', fetchCount: 99_999_999 } };
      case 'log-export': {
        const fileName = input.logExportFileName();
        return { path: 'report/log-export', body: { screen: 'transactions.ceft', fileName, rows: 1234 }, ref: fileName };
      }
      case 'approve': {
        const id = nextRequest;
        // past the last pending request, start again: those are decided now and answer 409
        nextRequest = nextRequest >= lastRequest ? firstRequest : nextRequest + 1;
        return { path: 'role/approve', body: { changeRequestID: id, actionTaken: 'approve' }, ref: id };
      }
      case 'money': {
        moneyNo++;
        if (moneyNo % 4 === 0 && nextMoney > 0) {
          const { id } = money[(nextMoney - 1) % money.length];
          return { path: 'Transaction/ceft/refund', body: { transactionID: id }, ref: id };
        }
        const { id, trace } = money[nextMoney++ % money.length];
        return { path: 'Transaction/ceft/manualFundTransfer', body: { trace }, ref: id };
      }
    }
  };
  return { pick, bodyOf };
}
