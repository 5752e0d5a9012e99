/**
 * List toolbar actions and notices: a general capability for list definitions (no JSX here).
 *
 * - A toolbar action is a button beside the filter bar that makes one call for the list as a whole
 *   (e.g. Generate Report), shown to holders of its permission when its named predicate holds for the
 *   applied filters and the last reply; it may ask for a confirmation first (when its own predicate
 *   holds), and says what happened in a toast; the list reloads after a success.
 * - Notices are lines the list's reply carries, shown above the table; `alert` turns them into a
 *   warning with a heading (e.g. today's rates not updated).
 *
 * `ToolbarListScreen` is a list definition with both. src/console/views/ListToolbar.tsx renders them.
 */
import type { CallContract } from '../api/contract';
import type { Permission } from '../domain/permissions';
import type { FilterValues, ListScreen, WholeReply } from './definitions';

/** What a toolbar predicate reads: the applied filters, the last reply and its rows, now, and the business time zone. */
export interface ToolbarContext {
  readonly filters: FilterValues;
  readonly reply: WholeReply | undefined;
  readonly rows: readonly unknown[];
  readonly now: Date;
  /** The business time zone (docs/business-time.md): what "today" means, never the browser's day. */
  readonly timeZone: string;
}

export interface ToolbarAction {
  readonly id: string;
  readonly label: string;
  /** The label while the call runs (long work shows progress). */
  readonly busyLabel?: string;
  readonly permission: Permission;
  /** A named predicate: shown only when it holds (evaluated after each load). */
  readonly when?: (ctx: ToolbarContext) => boolean;
  readonly call: CallContract;
  /** The request body; `confirmed` is true when the confirmation below was accepted. */
  readonly body: (ctx: ToolbarContext & { readonly confirmed: boolean }) => unknown;
  /** Ask first, when `when` holds: a dialog with a title, a message, listed lines, Cancel and `confirmLabel`. */
  readonly confirm?: {
    readonly when: (ctx: ToolbarContext) => boolean;
    readonly title: string;
    readonly message: string;
    readonly lines?: (ctx: ToolbarContext) => readonly string[];
    readonly confirmLabel: string;
  };
  /** The success toast; the list reloads after it. */
  readonly success: string;
  /** The failure toast, by the failed reply's status and business code. */
  readonly failure: (result: { readonly statusCode: number; readonly code?: number }) => string;
}

export interface ListNotices {
  /** The warning heading, when the notices are a warning (else they show as information). */
  readonly alert?: (reply: WholeReply) => string | undefined;
  /** The lines to list. */
  readonly lines: (reply: WholeReply) => readonly string[];
}

/** A list definition with toolbar actions and notices (every ListScreen may have them). */
export type ToolbarListScreen<Row> = ListScreen<Row>;
