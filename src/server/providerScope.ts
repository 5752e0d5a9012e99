/**
 * Which IPG provider's transactions a console user may see (docs/settlement.md): an IPG bank user
 * (user_type IPGBANK, whose branch code is their provider's bank code, as in ./areas/providerCurrencies.ts)
 * sees their own provider's rows only, on the transaction lists, the settlement reports and their
 * exports; a super user and back-office staff see every provider's. The scope is applied by the list
 * and report queries on the server, never by the console alone.
 */
import { isSuperUser } from '../domain/permissions';
import type { Db } from './db/db';

/** Every provider's rows. */
export const ALL_PROVIDERS = undefined;

/**
 * The provider code the user is limited to, or undefined (ALL_PROVIDERS) for everyone else. An IPG
 * bank user whose branch names no provider is limited to that code all the same: they see nothing.
 */
export async function providerScopeOf(db: Db, user: { id: number; permissions: readonly string[] }): Promise<string | undefined> {
  if (isSuperUser(user.permissions)) return ALL_PROVIDERS;
  const me = await db.one<{ branch_code: string; user_type: string }>('SELECT branch_code, user_type FROM console_users WHERE id = $1', [user.id]);
  return me?.user_type === 'IPGBANK' ? me.branch_code : ALL_PROVIDERS;
}
