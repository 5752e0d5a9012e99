/**
 * One dashboard widget's call, through the runtime's request helper. Each widget loads on its own: a
 * failed call leaves that widget empty (spec 000 §8: widget failures are silent) and the others as
 * they are. While a new period loads, the previous figures stay (marked busy).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallContract, DataOf, RequestOf } from '../../api/contract';
import { callApi } from '../../console/request';
import type { ChartStatus } from '../../console/charts';

export interface WidgetState<D> {
  data: D | undefined;
  status: ChartStatus;
  /** A newer request is on its way (the figures shown are the previous ones). */
  busy: boolean;
}

/** `body` null: not yet (e.g. a custom range still being picked). */
export function useDashboardCall<C extends CallContract>(contract: C, body: RequestOf<C> | null): WidgetState<DataOf<C>> {
  const q = useQuery({
    queryKey: ['dashboard', contract.path, body],
    enabled: body !== null,
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const res = await callApi(contract, body ?? {}, { signal });
      if (!res.ok) throw new Error(`${contract.path}: ${res.statusCode}`);
      return res.data as DataOf<C>;
    },
  });
  const status: ChartStatus = q.isError ? 'failed' : q.data === undefined ? 'loading' : 'ready';
  return { data: q.isError ? undefined : q.data, status, busy: q.isFetching && q.data !== undefined };
}
