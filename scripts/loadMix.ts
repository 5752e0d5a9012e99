/**
 * The load mix of `npm run load` (scripts/load.ts) and `npm run cluster -- --chaos` (scripts/cluster.ts):
 * which calls, how often, what each may answer, and the body of each, in one place.
 */
export type Kind = 'list' | 'filter' | 'export' | 'log-export' | 'approve';

/** Each kind's share of the requests, in percent. */
export const WEIGHTS: [Kind, number][] = [
  ['list', 35],
  ['filter', 30],
  ['export', 8],
  ['log-export', 7],
  ['approve', 20],
];

/** The statuses each call may answer; anything else is an error. */
export const EXPECTED: Record<Kind, number[]> = { list: [200], filter: [200], export: [200], 'log-export': [200], approve: [200, 409] };

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
}

/** A request of the mix: its call, its body, and what it refers to (approve: the change request; log-export: the file name). */
export interface MixRequest {
  readonly path: string;
  readonly body: unknown;
  readonly ref?: string | number;
}

/** `pick`: a kind drawn by WEIGHTS; `bodyOf`: the request of a kind (approves take the next change request). */
export function loadMix(input: LoadMixInput): { pick: () => Kind; bodyOf: (kind: Kind) => MixRequest } {
  const { today, weekAgo, countries, firstRequest, lastRequest } = input;
  const statuses = ['', 'SUCCESS', 'FAILED', 'PENDING'];
  const total = WEIGHTS.reduce((s, [, w]) => s + w, 0);
  let nextRequest = firstRequest;
  const pick = (): Kind => {
    let x = Math.random() * total;
    for (const [k, w] of WEIGHTS) if ((x -= w) < 0) return k;
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
    }
  };
  return { pick, bodyOf };
}
