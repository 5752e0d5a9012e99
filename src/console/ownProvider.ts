/**
 * Whether the signed-in user has an IPG provider of their own (spec 002 §2: a non-super user sees the
 * provider of their own branch on IPG Provider Currencies). Asked once per session of a user who may
 * open that screen, with the screen's own call: the server answers 404 when no provider is linked to
 * the user's branch. Undefined while unknown (the entry stays), and for super users (who pick by route).
 */
import { useQuery } from '@tanstack/react-query';
import { currencyList } from '../api/providerCurrencies';
import { hasAnyPermission, isSuperUser } from '../domain/permissions';
import type { SessionUser } from '../definitions/definitions';
import { callApi } from './request';

export function useOwnProvider(user: SessionUser): boolean | undefined {
  const asks = !isSuperUser(user.permissions) && hasAnyPermission(user.permissions, ['ipg-currency-view']);
  const query = useQuery({
    queryKey: ['ownProvider', user.username],
    enabled: asks,
    retry: false,
    staleTime: Infinity,
    queryFn: async () => {
      const res = await callApi(currencyList, { provider_bank_code: '' });
      if (res.ok) return true;
      if (res.statusCode === 404) return false;
      throw new Error(String(res.statusCode));
    },
  });
  return asks ? query.data : undefined;
}
