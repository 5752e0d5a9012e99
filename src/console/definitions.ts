/**
 * Screen definitions: typed data the runtime renders. A definition is plain data plus small named
 * pure functions, never JSX, so the server (export fields), codegen and tests can import it.
 *
 * `defineListScreen<Row>()({...})` makes column keys, sort keys and guards typed by the row.
 */
import type { z } from 'zod';
import type { CallContract, ChangeRequest, DataOf, ExportField, RequestOf } from '../api/contract';
import type { Permission } from '../domain/permissions';

/** Who is looking: what guards and visibility rules read. */
export interface SessionUser {
  readonly username: string;
  readonly permissions: readonly string[];
}

/** Filter values as they live in the URL (strings and numbers only). */
export type FilterValues = Record<string, string | number>;

// ---- access -----------------------------------------------------------------------------------

/**
 * Who may open a screen. `anyOf`: at least one of these permissions (super-permission counts).
 * `rule`: a named predicate from src/domain for the route table's special cases (auditor variants).
 */
export type ScreenAccess =
  | { readonly anyOf: readonly Permission[] }
  | { readonly rule: (permissions: readonly string[]) => boolean; readonly permissions: readonly Permission[] };

export type MenuSection = 'Main' | 'Administrator' | 'Reports' | 'Audit Reports';

export interface MenuEntry {
  readonly section: MenuSection;
  readonly label: string;
  /** Lower first. */
  readonly order: number;
  /** The menu entry is hidden from super users (they reach the screen by route). */
  readonly hiddenFromSuper?: boolean;
}

interface ScreenBase {
  /** Unique id, e.g. 'users', 'users.create'. */
  readonly id: string;
  /** Route path; parameters as `$id`. */
  readonly route: string;
  readonly title: string;
  /** Breadcrumb trail; the last item is the current page. */
  readonly breadcrumb?: readonly { readonly label: string; readonly to?: string }[];
  readonly access: ScreenAccess;
  readonly menu?: MenuEntry;
}

// ---- list screens -----------------------------------------------------------------------------

/** How a cell is shown; the runtime maps each kind to a renderer and an export type. */
export type CellKind =
  | 'text'
  | 'integer'
  | 'amount'
  | 'datetime'
  | 'status'
  | 'tags'
  | 'image'
  | 'yesNo'
  /** A list of objects (e.g. dependants) shown in an expandable panel; exported as text lines. */
  | 'list';

export interface Column<Row> {
  readonly key: Extract<keyof Row, string>;
  readonly header: string;
  /** Default 'text'. */
  readonly kind?: CellKind;
  /** Default true. */
  readonly sortable?: boolean;
  /** Default true: the column is in the Excel and PDF exports. */
  readonly export?: boolean;
  /** Amounts: show '-' for zero (e.g. charges not applied). */
  readonly zeroAsDash?: boolean;
  /**
   * An expandable panel (arrow button, tooltip 'Click to view') showing these fields of the row,
   * read-only; each field is its own column in the exports.
   */
  readonly panel?: readonly PanelField<Row>[];
  /** For kind 'list': the fields of each item, in order. */
  readonly itemFields?: readonly { readonly key: string; readonly label: string }[];
}

export interface PanelField<Row> {
  readonly key: Extract<keyof Row, string>;
  readonly label: string;
  readonly kind?: CellKind;
}

export interface GuardContext<Row> {
  readonly row: Row;
  readonly user: SessionUser;
}

/** A named predicate from src/domain deciding whether an action applies to a row. */
export type Guard<Row> = (ctx: GuardContext<Row>) => boolean;

export interface ConfirmSpec<Row> {
  readonly title: string;
  readonly message: (row: Row) => string;
  readonly danger?: boolean;
}

export type RowActionRun<Row> =
  | { readonly kind: 'navigate'; readonly to: (row: Row) => string }
  | {
      readonly kind: 'call';
      readonly call: CallContract;
      readonly body: (row: Row, input: { comment: string }) => unknown;
      readonly confirm?: ConfirmSpec<Row>;
      /** Ask for a comment first (e.g. hold/unhold). */
      readonly input?: { readonly label: string; readonly maxLength: number; readonly requiredMessage: string };
      readonly success: (row: Row) => string;
      readonly failure: string;
    }
  /** A modal registered with the runtime by name (e.g. 'changePassword', 'images'). */
  | { readonly kind: 'modal'; readonly modal: string };

export interface RowAction<Row> {
  readonly id: string;
  readonly label: string | ((row: Row) => string);
  readonly permission: Permission;
  /** Shown only when this guard holds. The server calls the same guard before acting. */
  readonly when?: Guard<Row>;
  readonly run: RowActionRun<Row>;
}

export type FilterDef =
  | { readonly kind: 'text'; readonly key: string; readonly label: string; readonly maxLength: number }
  | { readonly kind: 'fetchCount'; readonly key: string }
  | { readonly kind: 'select'; readonly key: string; readonly label: string; readonly options: readonly { readonly value: string; readonly label: string }[] }
  /** A select whose options come with the list's reply (e.g. countries); the first option is `allLabel` with value ''. */
  /** From and To date-time pickers: capped at now, To follows From; default today 00:00:00 to 23:59:59. */
  | { readonly kind: 'dateTimeRange'; readonly from: string; readonly to: string; readonly fromLabel?: string; readonly toLabel?: string }
  /** One date, capped at today; default today. */
  | { readonly kind: 'date'; readonly key: string; readonly label: string }
  | { readonly kind: 'dataSelect'; readonly key: string; readonly label: string; readonly allLabel: string; readonly options: (data: unknown) => readonly { readonly value: string; readonly label: string }[] };

export interface ListSource<Row, C extends CallContract> {
  readonly call: C;
  /** The request body from the current filter values. */
  readonly request: (filters: FilterValues) => RequestOf<C>;
  readonly rows: (data: DataOf<C>) => Row[];
  readonly changeRequests?: (data: DataOf<C>) => ChangeRequest[];
}

export interface ChangeRequestPanel {
  /** Shown to holders of this permission. */
  readonly permission: Permission;
  readonly approve: CallContract;
  /** Used in the toasts: '{entity} approved successfully', '{entity} rejected failed!'. */
  readonly entity: string;
}

export interface ListScreen<Row, C extends CallContract = CallContract> extends ScreenBase {
  readonly kind: 'list';
  readonly source: ListSource<Row, C>;
  readonly rowKey?: Extract<keyof Row, string>;
  readonly columns: readonly Column<Row>[];
  /** Filters shown in the filter bar; with filters the list loads on Search, else on open. */
  readonly filters?: readonly FilterDef[];
  /** Default 50. */
  readonly pageSize?: number;
  /** Default `{ key: 'id', desc: false }`. */
  readonly defaultSort?: { readonly key: Extract<keyof Row, string>; readonly desc: boolean };
  readonly createButton?: { readonly label: string; readonly permission: Permission; readonly to: string };
  readonly changeRequests?: ChangeRequestPanel;
  readonly rowActions?: readonly RowAction<Row>[];
  /** Locked rows show only a lock icon labelled Locked instead of their actions. */
  readonly lockedWhen?: (row: Row) => boolean;
  readonly exports?: { readonly fileBase: string; readonly title: string };
  readonly emptyMessage?: string;
  /** A 'Clear All Filters' button: resets to the defaults (range 00:00:01 to 23:59:59) and reloads. */
  readonly clearButton?: boolean;
  /** Count cards above the table, from their own call (loaded on open and after each search). */
  readonly countCards?: CountCards;
  /** Totals under the table, read from the whole reply. */
  readonly footer?: TotalsFooter;
  /**
   * Tabs over the same filters and columns: each tab may have its own source and footer, and may
   * drop the row actions.
   */
  readonly tabs?: readonly ListTab<Row>[];
}

export interface CountCards {
  readonly call: CallContract;
  readonly cards: readonly { readonly label: string; readonly key: string; readonly tone: 'green' | 'yellow' | 'red' | 'blue' | 'gray' }[];
}

/** The reply as a whole: `data` plus the top-level extras some calls carry. */
export type WholeReply = { readonly data: unknown } & Record<string, unknown>;

export interface TotalsFooter {
  readonly items: readonly { readonly label: string; readonly currency: 'USD' | 'LKR'; readonly value: (reply: WholeReply) => number | undefined }[];
  readonly note?: string;
}

export interface ListTab<Row> {
  readonly id: string;
  readonly label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly source?: ListSource<Row, any>;
  readonly footer?: TotalsFooter;
  /** Default true. */
  readonly rowActions?: boolean;
}

export function defineListScreen<Row>() {
  return <C extends CallContract>(def: ListScreen<Row, C>): ListScreen<Row, C> => def;
}

// ---- form screens -----------------------------------------------------------------------------

export interface Option {
  readonly value: string | number;
  readonly label: string;
}

export interface FieldContext<Values, Options> {
  readonly values: Values;
  /** The data of the form's `options` call (undefined while loading). */
  readonly options: Options | undefined;
  readonly mode: 'create' | 'edit';
}

interface FieldBase<Values> {
  readonly key: Extract<keyof Values, string>;
  readonly label: string;
  readonly required?: boolean;
  /** Read-only in edit mode (e.g. bank code). */
  readonly readOnlyOnEdit?: boolean;
  /** Only shown in this mode. */
  readonly only?: 'create' | 'edit';
}

export type FormField<Values, Options> =
  | (FieldBase<Values> & { readonly kind: 'text'; readonly maxLength?: number; readonly inputType?: 'text' | 'email' | 'tel' })
  | (FieldBase<Values> & { readonly kind: 'password'; readonly generate?: boolean })
  | (FieldBase<Values> & {
      readonly kind: 'select';
      readonly valueType?: 'string' | 'number';
      readonly options: (ctx: FieldContext<Values, Options>) => readonly Option[];
      /** A label that depends on other values (e.g. Branch / Exchange House by user type). */
      readonly dynamicLabel?: (ctx: FieldContext<Values, Options>) => string;
      /** Fields reset when this one changes. */
      readonly clears?: readonly Extract<keyof Values, string>[];
    })
  | (FieldBase<Values> & { readonly kind: 'radio'; readonly options: readonly Option[] })
  | (FieldBase<Values> & {
      readonly kind: 'checkboxGroups';
      readonly groups: (ctx: FieldContext<Values, Options>) => readonly { readonly title: string; readonly items: readonly string[] }[];
      /** Display-only: the ticked items are derived, not edited. */
      readonly derived?: (ctx: FieldContext<Values, Options>) => readonly string[];
    });

export interface FormScreen<Values extends Record<string, unknown>, Options = unknown> extends ScreenBase {
  readonly kind: 'form';
  readonly mode: 'create' | 'edit';
  /** Client-side rules: the same zod schema the server validates with. */
  readonly schema: z.ZodType;
  readonly defaults: Values;
  readonly fields: readonly FormField<Values, Options>[];
  readonly options?: { readonly call: CallContract; readonly select: (data: unknown) => Options };
  /** Edit mode: load the record from the route parameter. */
  readonly load?: { readonly call: CallContract; readonly request: (params: Record<string, string>) => unknown; readonly values: (data: unknown) => Values };
  readonly submit: { readonly call: CallContract; readonly request: (values: Values, params: Record<string, string>) => unknown };
  readonly messages: { readonly success: string; readonly failure: string };
  /** Where to go after a successful submit and on Cancel. */
  readonly back: string;
}

export function defineFormScreen<Values extends Record<string, unknown>, Options = unknown>() {
  return (def: FormScreen<Values, Options>): FormScreen<Values, Options> => def;
}

// ---- hand-written screens ---------------------------------------------------------------------

/** A hand-written screen: the runtime looks its component up by `component` name. */
export interface CustomScreen extends ScreenBase {
  readonly kind: 'custom';
  readonly component: string;
  /** Rendered without the shell (Login). */
  readonly bare?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyListScreen = ListScreen<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFormScreen = FormScreen<any, any>;
export type AnyScreen = AnyListScreen | AnyFormScreen | CustomScreen;

/** The export type a cell kind maps to. */
export function exportTypeOf(kind: CellKind | undefined): ExportField['type'] {
  switch (kind) {
    case 'integer':
      return 'INTEGER';
    case 'amount':
      return 'DOUBLE';
    case 'datetime':
      return 'DATE';
    case 'yesNo':
      return 'BOOLEAN';
    default:
      return 'STRING';
  }
}
