/**
 * Find by trace, ID or UID in the console: which list screen shows a service's rows to a
 * user (its column definitions label the drawer's fields, its row actions are the drawer's), and the
 * URL's names for an open row. Pure.
 */
import type { AnyListScreen, AnyScreen } from '../definitions/definitions';
import { canOpen } from '../definitions/access';
import { findServices, type FindService } from '../domain/transactionFinder';

/** The list screens of each service: the operational one first, then the auditor's. */
export const serviceScreenIds: Record<FindService, readonly string[]> = {
  ceft: ['transactions.ceft', 'transactions.ceft.audit'],
  bill: ['transactions.bill', 'transactions.bill.audit'],
  echannelling: ['transactions.eChannelling', 'transactions.eChannelling.audit'],
  thyaga: ['transactions.thyaga', 'transactions.thyaga.audit'],
  insurance: ['transactions.insurance'],
};

/** The service whose rows a list screen shows, or undefined for a screen of anything else. */
export function serviceOfScreen(screenId: string): FindService | undefined {
  return findServices.find((s) => serviceScreenIds[s].includes(screenId));
}

/** The first screen of the service this user may open (operational, else auditor), or undefined. */
export function screenForService(screens: readonly AnyScreen[], service: FindService, permissions: readonly string[]): AnyListScreen | undefined {
  for (const id of serviceScreenIds[service]) {
    const screen = screens.find((s) => s.id === id);
    if (screen && screen.kind === 'list' && canOpen(screen, permissions)) return screen;
  }
  return undefined;
}

/**
 * The search parameter naming a row opened from the top-bar search, on any page: `find=ceft:123`
 * (service and id).
 */
export const FOUND_ROW_PARAM = 'find';
/** The search parameter naming a list's open row by its key: `row=123`. */
export const LIST_ROW_PARAM = 'row';

export function foundRowValue(service: FindService, id: number): string {
  return `${service}:${id}`;
}

/** `ceft:123` as a service and id, or undefined when it is not one. */
export function parseFoundRow(value: unknown): { service: FindService; id: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([a-z]+):([0-9]{1,10})$/.exec(value);
  if (!m) return undefined;
  const service = findServices.find((s) => s === m[1]);
  const id = Number(m[2]);
  return service && id >= 1 && id <= 2_147_483_647 ? { service, id } : undefined;
}

/** Column keys whose values are identifiers worth copying: IDs, traces, UIDs, reference numbers. */
export function isCopyableKey(key: string): boolean {
  return /^(id|trace|uid|nic)$|_id$|_tran_id$|^trace|_reference$/.test(key);
}
