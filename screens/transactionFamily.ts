/**
 * The transaction report family (spec 001): what every transaction report shares, declared once.
 * A report is `transactionReport<Row>()(variant, spec)`: the variant (`operational(permission)`, under
 * Reports, or `auditor`, under Audit Reports) gives breadcrumb, access and menu; the family gives ID
 * and Trace pinned, Clear All Filters, the USD totals footer, the exports titled as the screen and
 * 'No transactions found.'; the runtime gives page size and sort (LIST_DEFAULTS). The spec states
 * the rest: id, route, title, menu order, file base, source, filters, count cards, columns, tabs,
 * row actions. The filters, requests, count cards, footers and column groups the reports share are
 * here too.
 */
import { fetchCountOf, type CallContract, type RequestOf } from '../src/api/contract';
import {
  defineCountCards,
  defineListScreen,
  type CellKind,
  type Column,
  type FilterDef,
  type FilterValues,
  type ListScreen,
  type PanelField,
  type ScreenAccess,
  type TotalsFooter,
  type WholeReply,
} from '../src/definitions/definitions';
import { billCount, billList, ceftList, eChannellingAuditList, type BillRow, type CeftAuditRow, type CeftRow, type EChannellingRow, type InsuranceRow, type ThyagaRow } from '../src/api/transactions';
import { canSeeAuditorReports } from '../src/domain/access';
import { wireFrom, wireTo } from '../src/domain/dates';
import type { Permission } from '../src/domain/permissions';
import { statusFilterValues } from '../src/domain/transactionStatus';
import { limits } from '../src/domain/validation';

// ---- filters ---------------------------------------------------------------------------------

/** The request keys every transaction list takes, with the fetch count, and with the status. */
type RangeRequest = RequestOf<typeof eChannellingAuditList>;
type CountedRequest = RequestOf<typeof billList>;
type StatusRequest = RequestOf<typeof ceftList>;
type StatusFilterValue = (typeof statusFilterValues)[number];

/** The country filter's options: the countries that come with the list's reply. */
export function countryOptions(data: { readonly countries?: readonly { code: string; name: string }[] } | undefined) {
  return (data?.countries ?? []).map((c) => ({ value: c.code, label: c.name }));
}

export const dateRange: FilterDef<RangeRequest> = { kind: 'dateTimeRange', from: 'from_date', to: 'to_date' };
export const country: FilterDef<RangeRequest> = { kind: 'dataSelect', key: 'country_code', label: 'Country', allLabel: 'All Countries', options: countryOptions };
export const fetchCountFilter: FilterDef<CountedRequest> = { kind: 'fetchCount', key: 'fetchCount' };
export const searchText = (label: string): FilterDef<RangeRequest> => ({ kind: 'text', key: 'data', label, maxLength: limits.searchText });
export const sendMoneyStatus: FilterDef<StatusRequest> = {
  kind: 'select',
  key: 'status',
  label: 'Status',
  options: [
    { value: '', label: 'All' },
    { value: 'SUCCESS', label: 'SUCCESS' },
    { value: 'PENDING', label: 'PENDING' },
    { value: 'FAILED', label: 'FAILED' },
  ],
};
/** The usual filters: range, country, fetch count and the search box labelled `search`. */
export const countedFilters = (search: string): FilterDef<CountedRequest>[] => [dateRange, country, fetchCountFilter, searchText(search)];

/** The range as sent (From with seconds 1, To with seconds 0), the country and the search text. */
export function rangeRequest(f: FilterValues) {
  return { from_date: wireFrom(String(f.from_date ?? '')), to_date: wireTo(String(f.to_date ?? '')), country_code: String(f.country_code ?? ''), data: String(f.data ?? '') };
}

/** The range request with the fetch count. */
export function countedRequest(f: FilterValues) {
  return { ...rangeRequest(f), fetchCount: fetchCountOf(f.fetchCount) };
}

/** The Send Money status filter's value as sent (anything unknown is All). */
export function statusOf(f: FilterValues): StatusFilterValue {
  return statusFilterValues.find((s) => s === f.status) ?? '';
}

const ALL_STATUSES: StatusFilterValue = '';

/** The counted request with the status filter's value. */
export function statusRequest(f: FilterValues) {
  return { ...countedRequest(f), status: statusOf(f) };
}

/** The counted request with an empty status (the auditor screens have no status filter). */
export function emptyStatusRequest(f: FilterValues) {
  return { ...countedRequest(f), status: ALL_STATUSES };
}

// ---- count cards and footers -----------------------------------------------------------------

export const countCards = defineCountCards(billCount, [
  { label: 'Success', key: 'completeTranCount', tone: 'green' },
  { label: 'Pending', key: 'pendingTranCount', tone: 'yellow' },
  { label: 'Failed', key: 'failedTranCount', tone: 'red' },
  { label: 'Refunded', key: 'refundTranCount', tone: 'blue' },
]).cards;

export const SUCCESSFUL_ONLY_NOTE = 'Displaying only the total value of successful transactions.';
/** The Refunded tab's totals are of the refunded transactions (status REFUNDED), in LKR: not of successful ones. */
export const REFUNDED_ONLY_NOTE = 'Displaying only the total value of refunded transactions, in LKR.';

/** Names a function made by a factory after the call that made it (`topLevel('totalAmount')`), as the specs show it. */
function madeBy<F extends (...args: never[]) => unknown>(call: string, fn: F): F {
  return Object.defineProperty(fn, 'name', { value: call });
}

/** A number under `key` of a value that may be an object; else undefined. */
function numberAt(v: unknown, key: string): number | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const x: unknown = Reflect.get(v, key);
  return typeof x === 'number' ? x : undefined;
}

/** A number at the top level of the reply. */
export function topLevel(key: string) {
  return madeBy(`topLevel('${key}')`, (reply: WholeReply) => numberAt(reply, key));
}

/** A number inside the reply's data. */
export function inData(key: string) {
  return madeBy(`inData('${key}')`, (reply: WholeReply) => numberAt(reply.data, key));
}

/** The Filtered and Total amounts read by `at`, in `currency`, with the note saying which transactions they count. */
export function totalsFooter(at: (key: string) => (reply: WholeReply) => number | undefined, currency: 'USD' | 'LKR', note: string): TotalsFooter {
  return {
    items: [
      { label: 'Filtered Amount', currency, value: at('filteredTotalAmount') },
      { label: 'Total Amount', currency, value: at('totalAmount') },
    ],
    note,
  };
}

/** Totals at the top level, in USD: every report's unless it says otherwise. */
export const usdFooter = totalsFooter(topLevel, 'USD', SUCCESSFUL_ONLY_NOTE);

// ---- the family ------------------------------------------------------------------------------

/** Where a report appears: the operational variant under Reports behind its own permission, the auditor one under Audit Reports. */
export interface Variant {
  readonly section: 'Reports' | 'Audit Reports';
  readonly access: ScreenAccess;
}
export const operational = (permission: Permission): Variant => ({ section: 'Reports', access: { anyOf: [permission] } });
export const auditor: Variant = { section: 'Audit Reports', access: { rule: canSeeAuditorReports, permissions: ['auditor-report-view'] } };

/** What a transaction report states; the menu label defaults to the title, the footer to the USD totals. */
type ReportSpec<Row, C extends CallContract> = Pick<ListScreen<Row, C>, 'id' | 'route' | 'title' | 'source' | 'filters' | 'countCards' | 'tabs' | 'columns' | 'rowActions'> & {
  readonly menu: { readonly label?: string; readonly order: number };
  readonly fileBase: string;
  readonly footer?: TotalsFooter;
};

/**
 * A transaction report in a variant: breadcrumb, access and menu from the variant; ID and Trace
 * pinned, a Clear All Filters button, the exports titled as the screen, 'No transactions found.'.
 */
export function transactionReport<Row extends { id: number; trace: string }>() {
  return <C extends CallContract>(variant: Variant, { menu, fileBase, footer = usdFooter, ...spec }: ReportSpec<Row, C>): ListScreen<Row, C> =>
    defineListScreen<Row>()({
      kind: 'list',
      id: spec.id,
      pinnedColumns: ['id', 'trace'],
      route: spec.route,
      title: spec.title,
      breadcrumb: [{ label: variant.section }, { label: spec.title }],
      access: variant.access,
      menu: { section: variant.section, label: menu.label ?? spec.title, order: menu.order },
      source: spec.source,
      filters: spec.filters,
      clearButton: true,
      ...(spec.countCards && { countCards: spec.countCards }),
      ...(spec.tabs && { tabs: spec.tabs }),
      columns: spec.columns,
      ...(spec.rowActions && { rowActions: spec.rowActions }),
      footer,
      exports: { fileBase, title: spec.title },
      emptyMessage: 'No transactions found.',
    });
}

// ---- columns shared by several kinds ---------------------------------------------------------

/** Columns typed by the rows that all have their keys. */
export type PaidRow = CeftRow | CeftAuditRow | BillRow | ThyagaRow | EChannellingRow | InsuranceRow;
export type IpgRow = Exclude<PaidRow, InsuranceRow>;

export const cardPaymentColumns: readonly Column<PaidRow>[] = [
  { key: 'card_payment_time', header: 'Card Payment Time', kind: 'datetime' },
  { key: 'card_payment_status', header: 'Card Payment Status', kind: 'paymentStatus' },
  { key: 'card_payment_description', header: 'Card Payment Description' },
  { key: 'ipg_transaction_id', header: 'IPG Transaction ID' },
];

/** The IPG charges of every IPG panel. */
export const ipgCharges: readonly PanelField<IpgRow>[] = [
  { key: 'ipg_rate', label: 'IPG Rate (%)', kind: 'amount' },
  { key: 'ipg_commission', label: 'IPG Commission', kind: 'amount' },
  { key: 'bank_charge', label: 'Bank Charge', kind: 'amount' },
  { key: 'refund_commission', label: 'Refund Commission (%)', kind: 'amount' },
];
export const beneficiaryAmount: PanelField<Exclude<IpgRow, EChannellingRow>> = { key: 'beneficiary_received_amount_lkr', label: 'Beneficiary Received Amount (LKR)', kind: 'amount' };

/** The IPG panel (send money, bill payments, Thyaga, E-Channelling): the exchange rate read from `rate`, the charges, then `more`. */
export function ipgPanel<K extends string, More = never>(header: string, rate: K, ...more: More[]) {
  const exchangeRate: { readonly key: K; readonly label: string; readonly kind: CellKind } = { key: rate, label: 'Exchange Rate (LKR)', kind: 'amount' };
  return { key: rate, header, panel: [exchangeRate, ...ipgCharges, ...more] };
}

export const voidColumns: readonly Column<IpgRow>[] = [
  { key: 'ipg_void_payment_time', header: 'IPG Void Payment Time', kind: 'datetime' },
  { key: 'ipg_void_status', header: 'IPG Void Status', kind: 'paymentStatus' },
  {
    key: 'ipg_void_tran_id',
    header: 'Void Details',
    panel: [
      { key: 'ipg_void_tran_id', label: 'Void Tran ID' },
      { key: 'ipg_void_description', label: 'Void Description' },
      { key: 'ipg_void_code', label: 'Void Code' },
      { key: 'ipg_void_message', label: 'Void Message' },
    ],
  },
];

export const timestampColumns: readonly Column<PaidRow>[] = [
  { key: 'created_at', header: 'Created At', kind: 'datetime' },
  { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
];

/** ID, Trace, UID/NIC and Country: the first columns of most kinds. */
export const leadColumns: readonly Column<IpgRow>[] = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'trace', header: 'Trace' },
  { key: 'uid', header: 'UID/NIC' },
  { key: 'country', header: 'Country' },
];
