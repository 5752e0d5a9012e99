/**
 * The transaction report family (spec 001): what every transaction report shares, declared once.
 * A report is `transactionReport<Row>()(variant, spec)`: the variant (`operational(permission)`, under
 * Reports, or `auditor`, under Audit Reports) gives breadcrumb, access and menu; the family gives ID
 * and Trace pinned, Clear All Filters, the USD totals footer, the exports titled as the screen and
 * 'No transactions found.'; the runtime gives page size and sort (LIST_DEFAULTS). The spec states
 * the rest: id, title, menu order, source, filters, count cards, columns, tabs, row actions, and
 * where they differ from the defaults `/transaction/<kind>` (route of an operational report; an
 * auditor report states its own) and `<kind>Transactions` (file base), the kind read from the id
 * `transactions.<kind>`. `reportPair` declares a report in both variants at once: what they share,
 * then each variant's list call, request and filters (and the auditor one's route). The filters,
 * requests, sources (`paged`), count cards, footers, column groups and the send-money warning
 * action the reports share are here too.
 */
import type { z } from 'zod';
import { fetchCountOf, type CallContract, type RequestOf } from '../src/api/contract';
import {
  defineCountCards,
  defineListScreen,
  type CellKind,
  type Column,
  type Guard,
  type RowAction,
  type RowActionRun,
  type FilterDef,
  type FilterValues,
  type ListScreen,
  type ListSource,
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
import type { MoneyAction, MoneyActionRow } from '../src/domain/moneyActionSummary';
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
  return {
    from_date: wireFrom(String(f.from_date ?? '')),
    to_date: wireTo(String(f.to_date ?? ''), String(f.from_date ?? '')),
    country_code: String(f.country_code ?? ''),
    data: String(f.data ?? ''),
  };
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

// ---- sources ---------------------------------------------------------------------------------

/** A transaction list call: its reply holds the rows as `filteredList` and, apart, the first page as `transactions`. */
export type PagedCall<Row> = CallContract<string, z.ZodType, z.ZodType<{ filteredList: Row[]; transactions: Row[] }>>;

/** A transaction list's source from its call and request: the rows from `filteredList`, the first page from `transactions`. */
export function paged<Row>() {
  return <C extends PagedCall<Row>>(call: C, request: (filters: FilterValues) => RequestOf<C>): ListSource<Row, C> => ({
    call,
    request,
    rows: (d) => d.filteredList,
    firstPage: (d) => d.transactions,
  });
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

/** Totals inside the reply's data (the insurance list's, the refunded send money tab's). */
export const dataFooter = (currency: 'USD' | 'LKR', note: string) => totalsFooter(inData, currency, note);

/** Totals at the top level, in USD: every report's unless it says otherwise. */
export const usdFooter = totalsFooter(topLevel, 'USD', SUCCESSFUL_ONLY_NOTE);

// ---- the family ------------------------------------------------------------------------------

/** What every transaction row has: its id and trace, its amount and currency. */
type TransactionRowBase = { id: number; trace: string; amount: number; currency_code: string };

/** Where a report appears: the operational variant under Reports behind its own permission, the auditor one under Audit Reports. */
export interface Variant {
  readonly section: 'Reports' | 'Audit Reports';
  readonly access: ScreenAccess;
  /** The route of a report of this kind that states none. */
  readonly routeOf?: (kind: string) => string;
}
export const operational = (permission: Permission): Variant => ({ section: 'Reports', access: { anyOf: [permission] }, routeOf: (kind) => `/transaction/${kind}` });
export const auditor: Variant = { section: 'Audit Reports', access: { rule: canSeeAuditorReports, permissions: ['auditor-report-view'] } };

/**
 * What a transaction report states; the menu label defaults to the title, the footer to the USD
 * totals, the route to the variant's, the file base to `<kind>Transactions` (kind lower-cased).
 */
type ReportSpec<Row, C extends CallContract> = Pick<ListScreen<Row, C>, 'id' | 'title' | 'source' | 'filters' | 'countCards' | 'tabs' | 'columns' | 'rowActions'> & {
  readonly route?: string;
  readonly menu: { readonly label?: string; readonly order: number };
  readonly fileBase?: string;
  readonly footer?: TotalsFooter;
};

/** The kind of a report by its id, `transactions.<kind>` ('ceft', 'bill', ...). */
function kindOf(id: string): string {
  const kind = id.split('.')[1];
  if (!kind) throw new Error(`A transaction report's id is transactions.<kind>: ${id}`);
  return kind;
}

/** What the two variants of a report share: every setting but the variant's route, source and filters. */
type PairSpec<Row> = Omit<ReportSpec<Row, CallContract>, 'route' | 'source' | 'filters'>;
/** What one variant of a pair states: its list call (a paged source) and request, its filters. */
type VariantSpec<Row, C extends PagedCall<Row>> = Pick<ReportSpec<Row, C>, 'filters'> & { readonly list: C; readonly request: (filters: FilterValues) => RequestOf<C> };

/**
 * A transaction report in both variants: the operational one (id as given, behind `permission`) and
 * the auditor one (id + '.audit', at its own route: the auditor routes follow no pattern), from what
 * they share and what each states.
 */
export function reportPair<Row extends TransactionRowBase>() {
  return <O extends PagedCall<Row>, A extends PagedCall<Row>>(
    shared: PairSpec<Row>,
    { permission, list, request, filters }: VariantSpec<Row, O> & { readonly permission: Permission },
    audit: VariantSpec<Row, A> & { readonly route: string },
  ): readonly [ListScreen<Row, O>, ListScreen<Row, A>] => [
    transactionReport<Row>()(operational(permission), { ...shared, source: paged<Row>()(list, request), filters }),
    transactionReport<Row>()(auditor, { ...shared, id: `${shared.id}.audit`, route: audit.route, source: paged<Row>()(audit.list, audit.request), filters: audit.filters }),
  ];
}

/**
 * A transaction report in a variant: breadcrumb, access and menu from the variant; ID and Trace
 * pinned, a Clear All Filters button, the exports titled as the screen, 'No transactions found.'.
 */
export function transactionReport<Row extends TransactionRowBase>() {
  return <C extends CallContract>(variant: Variant, { menu, fileBase, footer = usdFooter, ...spec }: ReportSpec<Row, C>): ListScreen<Row, C> =>
    defineListScreen<Row>()({
      kind: 'list',
      id: spec.id,
      pinnedColumns: ['id', 'trace'],
      route: routeOf(variant, spec),
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
      rowSummary: rowSummaryOf(spec.columns),
      footer,
      exports: { fileBase: fileBase ?? `${kindOf(spec.id).toLowerCase()}Transactions`, title: spec.title },
      emptyMessage: 'No transactions found.',
    });
}

/** The row drawer's head of every transaction: the amount in its currency, and each payment status column as a tag. */
function rowSummaryOf<Row extends TransactionRowBase>(columns: readonly Column<Row>[]): NonNullable<ListScreen<Row>['rowSummary']> {
  return {
    amount: 'amount',
    currency: 'currency_code',
    statuses: columns.filter((c) => c.kind === 'paymentStatus').map((c) => c.key),
  };
}

/** The report's route: its own, else its variant's for its kind. */
function routeOf(variant: Variant, spec: { readonly id: string; readonly route?: string | undefined }): string {
  const route = spec.route ?? variant.routeOf?.(kindOf(spec.id));
  if (route === undefined) throw new Error(`The ${variant.section} report ${spec.id} states no route`);
  return route;
}

// ---- row actions -----------------------------------------------------------------------------

type CallRun<Row> = Extract<RowActionRun<Row>, { kind: 'call' }>;

/**
 * A money action calling `call` behind the confirmation every send-money action asks: 'Warning!', in the
 * danger style, the specification's sentence (`warning`), then the summary of the money action `about`
 * (what, how much, whose, what happens: src/domain/moneyActionSummary.ts) and a confirm button saying
 * what it does. Its button is drawn as a danger action.
 */
export function warningAction<Row extends MoneyActionRow>(
  id: string,
  label: string,
  permission: Permission,
  when: Guard<Row>,
  call: CallRun<Row>['call'],
  { warning, about, ...run }: Omit<CallRun<Row>, 'kind' | 'call' | 'confirm'> & { readonly warning: (row: Row) => string; readonly about: MoneyAction },
): RowAction<Row> {
  return {
    id,
    label,
    permission,
    when,
    tone: 'danger',
    run: { kind: 'call', call, ...run, confirm: { title: 'Warning!', danger: true, message: warning, about: { kind: 'moneyAction', action: about } } },
  };
}

// ---- columns shared by several kinds ---------------------------------------------------------

/** Columns typed by the rows that all have their keys. */
export type PaidRow = CeftRow | CeftAuditRow | BillRow | ThyagaRow | EChannellingRow | InsuranceRow;
export type IpgRow = Exclude<PaidRow, InsuranceRow>;

/** A step's time, status and description: keys `<step>_time`, `_status`, `_description`, headers `<header> Time`, `Status`, `Description`. */
export function stepColumns<S extends string>(step: S, header: string): Column<Record<`${S}_${'time' | 'status' | 'description'}`, unknown>>[] {
  return [
    { key: `${step}_time`, header: `${header} Time`, kind: 'datetime' },
    { key: `${step}_status`, header: `${header} Status`, kind: 'paymentStatus' },
    { key: `${step}_description`, header: `${header} Description` },
  ];
}

export const cardPaymentColumns: readonly Column<PaidRow>[] = [...stepColumns('card_payment', 'Card Payment'), { key: 'ipg_transaction_id', header: 'IPG Transaction ID' }];

/** Account Number, Currency and Amount (send money, bill payments, Thyaga). */
export const moneyColumns: readonly Column<Exclude<IpgRow, EChannellingRow>>[] = [
  { key: 'account_number', header: 'Account Number' },
  { key: 'currency_code', header: 'Currency' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
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
  const exchangeRate: { readonly key: K; readonly label: string; readonly kind: CellKind } = { key: rate, label: 'Exchange Rate (LKR)', kind: 'rate' };
  return { key: rate, header, panel: [exchangeRate, ...ipgCharges, ...more] };
}

/** The IPG deduction panel of send money, bill payments and Thyaga: the exchange rate read from `rate`, the charges, the beneficiary's amount. */
export const deductionPanel = <K extends string>(rate: K) => ipgPanel('IPG Deduction Details', rate, beneficiaryAmount);

type ReversalKey<R extends string> = `ipg_${R}_${'payment_time' | 'status' | 'tran_id' | 'description' | 'code' | 'message'}`;

/** An IPG reversal's (a void's or a refund's) time and status. */
export function reversalStateColumns<R extends 'void' | 'refund'>(reversal: R, name: string): Column<Record<`ipg_${R}_${'payment_time' | 'status'}`, unknown>>[] {
  return [
    { key: `ipg_${reversal}_payment_time`, header: `IPG ${name} Payment Time`, kind: 'datetime' },
    { key: `ipg_${reversal}_status`, header: `IPG ${name} Status`, kind: 'paymentStatus' },
  ];
}

/** An IPG reversal (a void or a refund): its time and status, then its details panel (tran ID, description, code, message). */
export function reversalColumns<R extends 'void' | 'refund'>(reversal: R, name: string): Column<Record<ReversalKey<R>, unknown>>[] {
  return [
    ...reversalStateColumns(reversal, name),
    {
      key: `ipg_${reversal}_tran_id`,
      header: `${name} Details`,
      panel: [
        { key: `ipg_${reversal}_tran_id`, label: `${name} Tran ID` },
        { key: `ipg_${reversal}_description`, label: `${name} Description` },
        { key: `ipg_${reversal}_code`, label: `${name} Code` },
        { key: `ipg_${reversal}_message`, label: `${name} Message` },
      ],
    },
  ];
}

export const voidColumns: readonly Column<IpgRow>[] = reversalColumns('void', 'Void');

export const timestampColumns: readonly Column<PaidRow>[] = [
  { key: 'created_at', header: 'Created At', kind: 'datetime' },
  { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
];

/** ID and Trace: the first columns of the IPG kinds. */
export const idColumns: readonly Column<IpgRow>[] = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'trace', header: 'Trace' },
];

/** ID, Trace, UID/NIC and Country: the first columns of most kinds. */
export const leadColumns: readonly Column<IpgRow>[] = [...idColumns, { key: 'uid', header: 'UID/NIC' }, { key: 'country', header: 'Country' }];
