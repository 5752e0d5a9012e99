/**
 * Screen definitions: typed data the runtime renders. A definition is plain data plus small named
 * pure functions, never JSX, so the server (export fields), codegen and tests can import it.
 *
 * `defineListScreen<Row>()({...})` makes column keys, sort keys and guards typed by the row.
 */
import type { z } from 'zod';
import type { CallContract, ChangeRequest, DataOf, RequestOf } from '../api/contract';
import type { ServerSetting } from '../domain/approvals';
import type { Permission } from '../domain/permissions';
import type { MoneyAction } from '../domain/moneyActionSummary';
import type { ListNotices, ToolbarAction } from './toolbar';
import type { CustomComponentName, RowModalName } from './registries';
import type { ApprovalDisplay } from './records';

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
  { readonly anyOf: readonly Permission[]; readonly withSetting?: SettingAccess } | { readonly rule: (permissions: readonly string[]) => boolean; readonly permissions: readonly Permission[] };

/**
 * More permissions that open a screen while a server setting is on (the console learns the settings
 * from `config`): e.g. the large money actions' permissions open the approvals only while
 * MONEY_ACTION_APPROVAL_ABOVE_USD is set. A screen with an empty `anyOf` exists only while it is on.
 */
export interface SettingAccess {
  readonly setting: ServerSetting;
  readonly anyOf: readonly Permission[];
}

export type MenuSection = 'Main' | 'Administrator' | 'Reports' | 'Audit Reports';

/**
 * A section of the sidebar, in the order of the list (screens/menu.ts). With `shownWith`, the section
 * shows only to a user holding one of these permissions, on top of each entry's own access.
 */
export interface MenuSectionDef {
  readonly section: MenuSection;
  readonly shownWith?: readonly Permission[];
}

export interface MenuEntry {
  readonly section: MenuSection;
  readonly label: string;
  /** Lower first. */
  readonly order: number;
  /** The menu entry is hidden from super users (they reach the screen by route). */
  readonly hiddenFromSuper?: boolean;
  /**
   * The screen shows the provider of the user's own branch (spec 002 §2): the entry is hidden from a
   * user with no linked IPG provider, for whom it could only end in "no provider".
   */
  readonly needsOwnProvider?: boolean;
  /**
   * A count per area beside the entry (the approvals inbox): the call's reply, loaded when the menu
   * is drawn, every 30 s, and at once on each change the server announces while the inbox is open.
   */
  readonly counts?: CallContract<string, z.ZodType, z.ZodType<{ counts: { type: string; count: number }[]; total: number }>>;
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

/** How a cell is shown; each kind is declared once in ./cellKinds.ts (alignment, sort, export type, spec text). */
export type CellKind =
  | 'text'
  | 'integer'
  | 'amount'
  | 'datetime'
  | 'status'
  | 'tags'
  | 'image'
  | 'yesNo'
  /** A review state as a tag: APPROVED green, PENDING yellow, anything else red (e.g. KYC status). */
  | 'approval'
  /** A rate: 4 decimals with thousands separators, right-aligned (e.g. a settlement rate). */
  | 'rate'
  /** A payment state as a tag: SUCCESS green, PENDING and HOLD yellow, REFUNDED blue, anything else red; '-' when empty. */
  | 'paymentStatus'
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
  /** The business time zone (src/console/businessTime.ts): the guards read "today" in it, as the server does. */
  readonly timeZone: string;
}

/** A named predicate from src/domain deciding whether an action applies to a row. */
export type Guard<Row> = (ctx: GuardContext<Row>) => boolean;

/** What a confirmation shows beneath its message: facts (label and value) and one line saying what will happen. */
export interface ConfirmSummary {
  readonly facts: readonly { readonly label: string; readonly value: string }[];
  readonly effect: string;
}

/**
 * What a confirmation is about, by kind: the runtime builds from it the summary beneath the message and
 * the confirm button's verb (src/console/confirmAbout.ts, loaded with the lists, not on the first load).
 * 'moneyAction': a send-money action (src/domain/moneyActionSummary.ts) on a row that has its fields.
 */
export type ConfirmAbout = { readonly kind: 'moneyAction'; readonly action: MoneyAction };

export interface ConfirmSpec<Row> {
  readonly title: string;
  readonly message: (row: Row) => string;
  readonly danger?: boolean;
  /** A summary beneath the message and a verb on the confirm button (default 'Yes', 'Submit' with an input). */
  readonly about?: ConfirmAbout;
}

/** The text a call action asks for before it runs (e.g. a hold's reason), sent as `input.comment` to `body`. */
export interface ActionInput {
  readonly label: string;
  readonly maxLength: number;
  /** Asked for when set (a blank text shows it); without it the text is optional and blank means none. */
  readonly requiredMessage?: string;
  /**
   * With it, a longer text can be typed and is refused with this message (the call's own, so the user
   * reads what the server would answer) while a counter shows the length; without it the box stops at `maxLength`.
   */
  readonly tooLongMessage?: string;
}

export type RowActionRun<Row> =
  | { readonly kind: 'navigate'; readonly to: (row: Row) => string }
  | {
      readonly kind: 'call';
      readonly call: CallContract;
      readonly body: (row: Row, input: { comment: string }) => unknown;
      readonly confirm?: ConfirmSpec<Row>;
      /**
       * Ask for a comment first (e.g. hold/unhold, a transaction hold's reason). A failed call leaves the
       * dialog open with the server's message and the text as typed.
       */
      readonly input?: ActionInput;
      /** The toast of a success; `data` is the reply's data (e.g. a money action sent for approval says so). */
      readonly success: (row: Row, data?: unknown) => string;
      readonly failure: string;
      /** Default true: a failure shows the server's message when it sends one; false: always `failure`. */
      readonly serverMessage?: boolean;
    }
  /** A modal of the console's row-modal registry, by name (e.g. 'changePassword'; src/definitions/registries.ts). */
  | { readonly kind: 'modal'; readonly modal: RowModalName }
  /**
   * The row's images in a dialog titled `title` (e.g. 'User Images'): each image field of the row with
   * its label; a missing image shows the placeholder, an `optional` one is left out when missing.
   */
  | { readonly kind: 'images'; readonly title: string; readonly images: readonly ImageOfRow<Row>[] };

export interface ImageOfRow<Row> {
  readonly key: Extract<keyof Row, string>;
  readonly label: string;
  /** Left out when the row has no image for it (e.g. a passport has no back). */
  readonly optional?: boolean;
}

export interface RowAction<Row> {
  readonly id: string;
  readonly label: string | ((row: Row) => string);
  readonly permission: Permission;
  /** Also shown to holders of any of these (e.g. an auditor's view permission for a view-only action). */
  readonly anyOf?: readonly Permission[];
  /** Shown only when this guard holds. The server calls the same guard before acting. */
  readonly when?: Guard<Row>;
  /**
   * Why the action is missing on a row where the user holds its permission but `when` refuses it: a row
   * left with no action at all shows a muted mark with these reasons (as a locked row shows its lock).
   */
  readonly whyNot?: string;
  /** Shown on locked rows too, beside the lock: for actions that change nothing (viewing, navigating). */
  readonly showWhenLocked?: boolean;
  /**
   * The header of a column of its own that shows this action (e.g. App Users' 'Images'), just before
   * the Action column, instead of a button in the Action column.
   */
  readonly column?: string;
  /** 'danger': an action that cannot be undone (a money action); its button is drawn in the danger style. */
  readonly tone?: 'danger';
  readonly run: RowActionRun<Row>;
}

/**
 * The keys of a record as strings; any string for an untyped one (`unknown`), so a definition typed by
 * its call fits the runtime's untyped view of every screen.
 */
export type KeyOf<T> = unknown extends T ? string : Extract<keyof T, string>;

/**
 * A filter of a list whose call takes the request `Req` (`FilterDef<RequestOf<C>>`): its keys are
 * the request's keys, and a `dataSelect`'s options read the list's reply typed by `Data`.
 */
export type FilterDef<Req = unknown, Data = unknown> =
  | { readonly kind: 'text'; readonly key: KeyOf<Req>; readonly label: string; readonly maxLength: number }
  | { readonly kind: 'fetchCount'; readonly key: KeyOf<Req> }
  | { readonly kind: 'select'; readonly key: KeyOf<Req>; readonly label: string; readonly options: readonly { readonly value: string; readonly label: string }[] }
  /** From and To date-time pickers: capped at now, To follows From; default today 00:00:00 to 23:59:59. */
  | { readonly kind: 'dateTimeRange'; readonly from: KeyOf<Req>; readonly to: KeyOf<Req>; readonly fromLabel?: string; readonly toLabel?: string }
  /** One date, capped at today; default today. */
  | { readonly kind: 'date'; readonly key: KeyOf<Req>; readonly label: string }
  /** A select whose options come with the list's reply (e.g. countries); the first option is `allLabel` with value ''. */
  | { readonly kind: 'dataSelect'; readonly key: KeyOf<Req>; readonly label: string; readonly allLabel: string; options(data: Data): readonly { readonly value: string; readonly label: string }[] };

export interface ListSource<Row, C extends CallContract> {
  readonly call: C;
  /** The request body from the current filter values. */
  readonly request: (filters: FilterValues) => RequestOf<C>;
  readonly rows: (data: DataOf<C>) => Row[];
  /**
   * The rows of the first page under the list's default sort, when the reply sends them apart ahead
   * of `rows` (the transaction lists' `transactions`): shown as soon as they arrive, while the rest of
   * a large reply is still coming.
   */
  readonly firstPage?: (data: DataOf<C>) => Row[];
  readonly changeRequests?: (data: DataOf<C>) => ChangeRequest[];
}

export interface ChangeRequestPanel {
  /** Shown to holders of this permission (or of any of `alsoPermissions`). */
  readonly permission: Permission;
  /** Further permissions that show the panel (the list call returns each holder the requests they may decide). */
  readonly alsoPermissions?: readonly Permission[];
  readonly approve: CallContract;
  /** Used in the toasts: '{entity} approved successfully', '{entity} rejected failed!'. */
  readonly entity: string;
}

export interface ListScreen<Row, C extends CallContract = CallContract> extends ScreenBase {
  readonly kind: 'list';
  readonly source: ListSource<Row, C>;
  /**
   * The field that identifies a row (default LIST_DEFAULTS.rowKey, `id`): the row drawer's address, and the
   * table's key for the row, so a row action's open dialog stays with its record when a search or refetch
   * reorders the rows.
   */
  readonly rowKey?: Extract<keyof Row, string>;
  readonly columns: readonly Column<Row>[];
  /**
   * The columns that identify a row (e.g. ID and Trace): shown in their place among `columns` (pinning
   * never reorders, so the screen shows the columns in the order the exports write them), and kept in
   * view while the table scrolls sideways (the Action column is pinned to the right).
   */
  readonly pinnedColumns?: readonly (keyof Row & string)[];
  /**
   * The column the Action column (and the actions with a `column` of their own) come just before,
   * where the specification places the action among the columns (e.g. App Users: images, action,
   * hold reason); default: after the last column.
   */
  readonly actionsBefore?: keyof Row & string;
  /** Filters shown in the filter bar; with filters the list loads on Search, else on open. Keys are the call's request keys. */
  readonly filters?: readonly FilterDef<RequestOf<C>, DataOf<C>>[];
  /** Default LIST_DEFAULTS.pageSize (50). */
  readonly pageSize?: number;
  /** Default LIST_DEFAULTS.defaultSort (`{ key: 'id', desc: false }`). */
  readonly defaultSort?: { readonly key: Extract<keyof Row, string>; readonly desc: boolean };
  readonly createButton?: { readonly label: string; readonly permission: Permission; readonly to: string };
  readonly changeRequests?: ChangeRequestPanel;
  readonly rowActions?: readonly RowAction<Row>[];
  /** Locked rows show only a lock icon labelled Locked instead of their actions. */
  readonly lockedWhen?: (row: Row) => boolean;
  /**
   * The head of the row drawer: the amount with its currency, prominent, and the statuses as tags
   * (labelled by their columns' headers, drawn as the columns draw them).
   */
  readonly rowSummary?: {
    readonly amount: keyof Row & string;
    readonly currency: keyof Row & string;
    readonly statuses?: readonly (keyof Row & string)[];
  };
  readonly exports?: { readonly fileBase: string; readonly title: string };
  readonly emptyMessage?: string;
  /** A 'Clear All Filters' button: resets to the defaults (range 00:00:01 to 23:59:59) and reloads. */
  readonly clearButton?: boolean;
  /** Count cards above the table, from their own call (loaded on open and after each search). */
  readonly countCards?: CountCards;
  /** Totals under the table, read from the whole reply. */
  readonly footer?: TotalsFooter;
  /**
   * Tabs over the same filters and columns: each tab may have its own source, footer and exports
   * (else the screen's), and may drop the row actions.
   */
  readonly tabs?: readonly ListTab<Row>[];
  /** Buttons beside the title that act on the list as a whole (e.g. Generate Report); see toolbar.ts. */
  readonly toolbarActions?: readonly ToolbarAction[];
  /** Lines the reply carries, shown above the table (optionally as a warning). */
  readonly notices?: ListNotices;
}

/**
 * Count cards from their own call: each card's `key` is a key of the call's data
 * (`defineCountCards(call, cards)` checks it).
 */
export interface CountCards<C extends CallContract = CallContract> {
  readonly call: C;
  readonly cards: readonly { readonly label: string; readonly key: KeyOf<DataOf<C>>; readonly tone: 'green' | 'yellow' | 'red' | 'blue' | 'gray' }[];
}

/** Count cards typed by their call: a card's key that the call's data does not have is a compile error. */
export function defineCountCards<C extends CallContract>(call: C, cards: CountCards<C>['cards']): CountCards<C> {
  return { call, cards };
}

/** What the list runtime does when a definition says nothing: state only what differs. */
export const LIST_DEFAULTS = {
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  rowKey: 'id',
} as const;

/** The reply as a whole: `data` plus the top-level extras some calls carry. */
export type WholeReply = { readonly data: unknown } & Record<string, unknown>;

export interface TotalsFooter {
  readonly items: readonly { readonly label: string; readonly currency: 'USD' | 'LKR'; readonly value: (reply: WholeReply) => number | undefined }[];
  readonly note?: string;
}

export interface ListTab<Row> {
  readonly id: string;
  readonly label: string;
  /** Default: the screen's source. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly source?: ListSource<Row, any>;
  /** Default: the screen's footer. */
  readonly footer?: TotalsFooter;
  /** Default true. */
  readonly rowActions?: boolean;
  /** Default: the screen's exports (file name and title). */
  readonly exports?: { readonly fileBase: string; readonly title: string };
}

/** A source typed by its call, for a tab: `defineListSource<Row>()({ call, request, rows })`. */
export function defineListSource<Row>() {
  return <C extends CallContract>(source: ListSource<Row, C>): ListSource<Row, C> => source;
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
  /** Edit: the record's values as loaded (before any change), e.g. to keep offering the record's own type. */
  readonly initial?: Values;
}

interface FieldBase<Values> {
  readonly key: Extract<keyof Values, string>;
  readonly label: string;
  readonly required?: boolean;
  /** Read-only in edit mode (e.g. bank code). */
  readonly readOnlyOnEdit?: boolean;
  /** Only shown in this mode. */
  readonly only?: 'create' | 'edit';
  /** How a change request of the record shows the field, where it differs from the default (./records.ts). */
  readonly approval?: ApprovalDisplay;
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
    })
  /**
   * An image upload with a preview. The value is the new image's base64 text (no `data:` prefix) or,
   * unchanged on edit, the stored path it was loaded with; '' when none.
   */
  | (FieldBase<Values> & { readonly kind: 'image' } & ImageSpec)
  /**
   * `count` image slots, each with a link. The value is a list of `count` `{ image, link }` (an empty
   * slot has image ''); images as in the 'image' kind. Errors are read at `<key>.<n>.image` and `.link`.
   */
  | (FieldBase<Values> & { readonly kind: 'imageSlots'; readonly count: number; readonly image: ImageSpec; readonly linkLabel: string; readonly linkMaxLength: number })
  /**
   * A tag picker: a select of options, an Add button and removable tags. The value is the list of
   * chosen option values; an option is offered only once. `exclusive`: a value that stands alone
   * (e.g. 'ALL'): adding it replaces the others, adding another removes it.
   */
  | (FieldBase<Values> & { readonly kind: 'tags'; readonly options: (ctx: FieldContext<Values, Options>) => readonly Option[]; readonly exclusive?: string })
  /**
   * A date picker (value 'yyyy-MM-dd', locale en-CA). `follows`: another date field this one may not
   * precede: its minimum is that field's value, and it moves up to it when that field passes it.
   */
  | (FieldBase<Values> & { readonly kind: 'date'; readonly follows?: Extract<keyof Values, string> })
  /** A version in numeric boxes joined as major.minor.patch+build; `parts` are the boxes' labels. */
  | (FieldBase<Values> & { readonly kind: 'version'; readonly parts: readonly string[]; readonly maxDigits: number })
  /** Toggle buttons choosing any of the options; the value is the list of chosen values. */
  | (FieldBase<Values> & { readonly kind: 'toggles'; readonly options: readonly Option[] })
  /** An on/off switch; the value is 1 (on) or 0 (off). */
  | (FieldBase<Values> & { readonly kind: 'switch' })
  /**
   * A rate: digits only, entered from the right (typing 1, 2 gives 0.0012 with 4 decimals), shown
   * with comma grouping; Backspace resets it to zero. The value is a number.
   */
  | (FieldBase<Values> & { readonly kind: 'rate' } & RateSpec);

/** How an image field accepts and shows an image. */
export interface ImageSpec {
  /** The formats accepted as uploaded ('png', 'jpeg'), unless `toPng`. */
  readonly formats: readonly ('png' | 'jpeg')[];
  /** The image (after conversion) must be smaller than this many bytes. */
  readonly maxBytes: number;
  /** Any picture the browser can read is converted to PNG, scaled to fit this box (pixels). */
  readonly toPng?: { readonly maxWidth: number; readonly maxHeight: number };
  /** The preview's display size, in CSS pixels. */
  readonly width: number;
  readonly height: number;
  /** A hint under the picker (e.g. 'Image size should be under 100 KB'). */
  readonly hint?: string;
  /** The message for a file that is not an accepted image or is too large. */
  readonly invalidMessage: string;
}

export interface RateSpec {
  /** Decimal places (e.g. 4). */
  readonly decimals: number;
  /** Most digits the input takes (e.g. 10). */
  readonly maxDigits: number;
}

/** The form's `options` call: its data, read by `select`, feeds the fields' option lists. */
export interface FormOptions<Options, C extends CallContract = CallContract> {
  readonly call: C;
  readonly select: (data: DataOf<C>) => Options;
}

/** Edit mode: the record loaded from the route parameter, as the form's values. */
export interface FormLoad<Values, C extends CallContract = CallContract> {
  readonly call: C;
  readonly request: (params: Record<string, string>) => RequestOf<C>;
  readonly values: (data: DataOf<C>) => Values;
}

/**
 * The submit call and its body, built from the values as the form's schema output them (the runtime
 * submits only values that passed the schema, parsed by it): the body is checked against the call's
 * request, so a field the call does not take, or a value it refuses by type, is a compile error.
 */
export interface FormSubmit<Valid, C extends CallContract = CallContract> {
  readonly call: C;
  readonly request: (values: Valid, params: Record<string, string>) => RequestOf<C>;
}

export interface FormScreen<
  Values extends Record<string, unknown>,
  Options = unknown,
  OC extends CallContract = CallContract,
  LC extends CallContract = CallContract,
  SC extends CallContract = CallContract,
  S extends z.ZodType = z.ZodType,
> extends ScreenBase {
  readonly kind: 'form';
  readonly mode: 'create' | 'edit';
  /** Client-side rules: the same zod schema the server validates with; submit reads its output. */
  readonly schema: S;
  readonly defaults: Values;
  readonly fields: readonly FormField<Values, Options>[];
  readonly options?: FormOptions<Options, OC>;
  /** Edit mode: load the record from the route parameter. */
  readonly load?: FormLoad<Values, LC>;
  readonly submit: FormSubmit<z.output<S>, SC>;
  readonly messages: { readonly success: string; readonly failure: string };
  /** Where to go after a successful submit and on Cancel. */
  readonly back: string;
}

/**
 * `defineFormScreen<Values, Options>()({...})`: field keys typed by the values; the `options`,
 * `load` and `submit` calls inferred, so `select` and `values` read the calls' data, and `load`'s
 * request and the submit body (from the schema's output) are checked against their calls.
 */
export function defineFormScreen<Values extends Record<string, unknown>, Options = unknown>() {
  return <OC extends CallContract, LC extends CallContract, SC extends CallContract, S extends z.ZodType>(
    def: FormScreen<Values, Options, OC, LC, SC, S>,
  ): FormScreen<Values, Options, OC, LC, SC, S> => def;
}

// ---- hand-written screens ---------------------------------------------------------------------

/** A hand-written screen: the runtime looks its component up by `component` name (src/definitions/registries.ts). */
export interface CustomScreen extends ScreenBase {
  readonly kind: 'custom';
  readonly component: CustomComponentName;
  /** Rendered without the shell (Login). */
  readonly bare?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyListScreen = ListScreen<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFormScreen = FormScreen<any, any, any, any, any, any>;
export type AnyScreen = AnyListScreen | AnyFormScreen | CustomScreen;

/** The export type a cell kind maps to (declared with the kind in ./cellKinds.ts). */
export { exportTypeOf } from './cellKinds';
