/**
 * Start-up checks of the definitions: what the compiler cannot check, reported with a stable code and
 * a sentence (in the spirit of Django's checks.py). Run by the console (src/main.tsx) and the server
 * (src/server/startupChecks.ts) at start, and by tests (tests/unit/checks.test.ts, one fixture per code
 * in tests/fixtures/checks/).
 *
 * Pure: no Node and no React imports, so the browser and the server both run it. The console's modal
 * registry is passed in (`hasModal`) rather than imported, so the server does not load the views.
 *
 * Codes are stable: a code keeps its meaning for ever; a new check gets a new code.
 */
import type { AnyScreen } from './definitions';
import type { CallContract, ExportField } from '../api/contract';
import { allCalls } from '../api';
import { isPermission } from '../domain/permissions';
import { exportFieldsOf } from './exportFields';

export interface CheckProblem {
  code: string;
  /** The screen id (or, for a hand-written menu entry, its route). */
  screen: string;
  message: string;
}

export const checkCodes = {
  unknownPermission: 'screens.E001',
  duplicateRoute: 'screens.E002',
  actionWithoutPermission: 'screens.E003',
  callWithoutContract: 'screens.E004',
  exportColumnUnknown: 'screens.E005',
  menuWithoutScreen: 'screens.E006',
  duplicateId: 'screens.E007',
  unknownModal: 'screens.E008',
  sortKeyUnknown: 'screens.E009',
  duplicateColumn: 'screens.E010',
  linkWithoutScreen: 'screens.E011',
} as const;

export type CheckCode = (typeof checkCodes)[keyof typeof checkCodes];

/** What each code means, one sentence each (CONTRIBUTING.md lists them). */
export const checkDescriptions: Record<CheckCode, string> = {
  'screens.E001': 'A permission a screen names (access, create button, change-request panel, row action) is not in the catalogue of src/domain/permissions.ts.',
  'screens.E002': 'Two screens are on one route (compared case-insensitively, parameter names ignored).',
  'screens.E003': 'A row action, create button or change-request panel declares no permission (deny by default).',
  'screens.E004': 'A call a screen makes is not a contract of allCalls in src/api.',
  'screens.E005': "An export column is not among the list's columns.",
  'screens.E006': 'A menu entry leads to a route no screen serves.',
  'screens.E007': 'Two screens have one id.',
  'screens.E008': 'A row action opens a modal that is not registered with the runtime.',
  'screens.E009': "A list's default sort key is not among its columns.",
  'screens.E010': 'Two columns of a list have one key.',
  'screens.E011': 'A create button, breadcrumb or form "back" link leads to a route no screen serves.',
};

export interface CheckOptions {
  /** Routes of hand-written menu entries (menus not built from the registry); each must lead to a screen. */
  menuRoutes?: readonly string[];
  /** Skip the modal check (the server has no modals). */
  skipModals?: boolean;
  /** Whether the console's row-modal map (passed in by src/main.tsx) holds this name; without it the modal check is skipped. */
  hasModal?: (name: string) => boolean;
  /** The registered contracts (default: allCalls of src/api). */
  calls?: readonly CallContract[];
  /**
   * Export columns given elsewhere for a list screen, by screen id (e.g. the `fields` a list call
   * returns when the server keeps its own list); each must be among the screen's export columns.
   */
  exportFields?: Readonly<Record<string, readonly ExportField[]>>;
}

// ---- what a screen names ----------------------------------------------------------------------

function permissionsOf(screen: AnyScreen): string[] {
  const out: string[] = [];
  const a = screen.access as Partial<{ anyOf: readonly string[]; permissions: readonly string[] }> | undefined;
  out.push(...(a?.anyOf ?? []), ...(a?.permissions ?? []));
  if (screen.kind === 'list') {
    if (screen.createButton?.permission) out.push(screen.createButton.permission);
    if (screen.changeRequests?.permission) out.push(screen.changeRequests.permission);
    out.push(...(screen.changeRequests?.alsoPermissions ?? []));
    for (const action of screen.rowActions ?? []) if (action.permission) out.push(action.permission);
    for (const action of screen.toolbarActions ?? []) if (action.permission) out.push(action.permission);
  }
  return out;
}

interface CallUse {
  where: string;
  call: CallContract | undefined;
}

function callsOf(screen: AnyScreen): CallUse[] {
  if (screen.kind === 'list') {
    const out: CallUse[] = [{ where: 'source', call: screen.source?.call }];
    if (screen.changeRequests) out.push({ where: 'change requests', call: screen.changeRequests.approve });
    if (screen.countCards) out.push({ where: 'count cards', call: screen.countCards.call });
    for (const t of screen.tabs ?? []) if (t.source) out.push({ where: `tab '${t.id}'`, call: t.source.call });
    for (const a of screen.rowActions ?? []) if (a.run?.kind === 'call') out.push({ where: `row action '${a.id}'`, call: a.run.call });
    for (const a of screen.toolbarActions ?? []) out.push({ where: `toolbar action '${a.id}'`, call: a.call });
    return out;
  }
  if (screen.kind === 'form') {
    const out: CallUse[] = [{ where: 'submit', call: screen.submit?.call }];
    if (screen.options) out.push({ where: 'options', call: screen.options.call });
    if (screen.load) out.push({ where: 'load', call: screen.load.call });
    return out;
  }
  return [];
}

/** A route for comparison: lower case, no trailing slash, every parameter as `$`. */
export function routeKey(route: string): string {
  const r = route
    .trim()
    .toLowerCase()
    .replace(/\/\$[^/]+/g, '/$')
    .replace(/\/+$/, '');
  return r === '' ? '/' : r;
}

/** The sidebar link of a menu entry, as menuFor (src/definitions/access.ts) builds it. */
export function menuLinkOf(route: string): string {
  return route.replace(/\/\$\w+$/, '');
}

/** Whether a concrete path (`/users/edit/5`) or a route (`/users/edit/$id`) is served by one of the routes. */
function servedBy(routes: readonly string[], path: string): boolean {
  const wanted = path.split(/[?#]/)[0];
  const key = routeKey(wanted);
  return routes.some((r) => {
    if (routeKey(r) === key) return true;
    const pattern = routeKey(r)
      .split('/')
      .map((seg) => (seg === '$' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return !wanted.includes('$') && new RegExp(`^${pattern}$`).test(key);
  });
}

// ---- the checks -------------------------------------------------------------------------------

export function checkDefinitions(screens: readonly AnyScreen[], opts: CheckOptions = {}): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const add = (code: CheckCode, screen: string, message: string) => problems.push({ code, screen, message });
  const calls = opts.calls ?? allCalls;
  const routes = new Map<string, string>();
  const ids = new Set<string>();
  const allRoutes = screens.map((s) => s.route);

  for (const s of screens) {
    if (ids.has(s.id)) add(checkCodes.duplicateId, s.id, `Two screens have the id '${s.id}'.`);
    ids.add(s.id);
    const route = routeKey(s.route);
    const other = routes.get(route);
    if (other !== undefined) add(checkCodes.duplicateRoute, s.id, `Screens '${other}' and '${s.id}' are both on route '${s.route}'.`);
    else routes.set(route, s.id);

    for (const p of permissionsOf(s)) {
      if (!isPermission(p)) add(checkCodes.unknownPermission, s.id, `Permission '${p}' is not in the permission catalogue (src/domain/permissions.ts).`);
    }

    for (const { where, call } of callsOf(s)) {
      if (!call || typeof call.path !== 'string') {
        add(checkCodes.callWithoutContract, s.id, `The ${where} names no call contract.`);
      } else if (!calls.includes(call)) {
        const wanted = call.path.toLowerCase();
        const registered = calls.find((c) => c.path.toLowerCase() === wanted);
        add(
          checkCodes.callWithoutContract,
          s.id,
          registered
            ? `The ${where} calls '${call.path}' through a contract object that is not the one in allCalls; import it from src/api.`
            : `The ${where} calls '${call.path}', which has no contract in allCalls (src/api).`,
        );
      }
    }

    if (s.menu) {
      const link = menuLinkOf(s.route);
      if (link.includes('$') || !servedBy(allRoutes, link)) {
        add(checkCodes.menuWithoutScreen, s.id, `Menu entry '${s.menu.label}' (${s.menu.section}) leads to '${link}', which no screen serves.`);
      }
    }

    const links: { what: string; to: string }[] = [];
    for (const b of s.breadcrumb ?? []) if (b.to) links.push({ what: `Breadcrumb '${b.label}'`, to: b.to });

    if (s.kind === 'list') {
      if (s.createButton) {
        if (!s.createButton.permission) add(checkCodes.actionWithoutPermission, s.id, `The create button '${s.createButton.label}' declares no permission.`);
        links.push({ what: `Create button '${s.createButton.label}'`, to: s.createButton.to });
      }
      if (s.changeRequests && !s.changeRequests.permission) add(checkCodes.actionWithoutPermission, s.id, 'The change-request panel declares no permission.');
      for (const a of s.rowActions ?? []) {
        if (!a.permission) add(checkCodes.actionWithoutPermission, s.id, `Row action '${a.id}' declares no permission.`);
        if (a.run?.kind === 'modal' && !opts.skipModals && opts.hasModal && !opts.hasModal(a.run.modal)) {
          add(checkCodes.unknownModal, s.id, `Row action '${a.id}' opens modal '${a.run.modal}', which is not registered.`);
        }
      }

      const columns = s.columns ?? [];
      const seen = new Set<string>();
      for (const c of columns) {
        if (seen.has(c.key)) add(checkCodes.duplicateColumn, s.id, `Two columns have the key '${c.key}'.`);
        seen.add(c.key);
      }
      if (s.defaultSort && !seen.has(s.defaultSort.key)) add(checkCodes.sortKeyUnknown, s.id, `The default sort key '${s.defaultSort.key}' is not among the columns.`);

      const exportKeys = new Set(exportFieldsOf({ columns }).map((f) => f.dataKey));
      for (const f of opts.exportFields?.[s.id] ?? []) {
        if (!exportKeys.has(f.dataKey)) add(checkCodes.exportColumnUnknown, s.id, `Export column '${f.dataKey}' ('${f.header}') is not among the list's columns.`);
      }
    }

    if (s.kind === 'form' && s.back) links.push({ what: 'The form\'s "back" link', to: s.back });
    for (const l of links) {
      if (!servedBy(allRoutes, l.to)) add(checkCodes.linkWithoutScreen, s.id, `${l.what} leads to '${l.to}', which no screen serves.`);
    }
  }

  for (const id of Object.keys(opts.exportFields ?? {})) {
    const s = screens.find((x) => x.id === id);
    if (!s || s.kind !== 'list') add(checkCodes.exportColumnUnknown, id, `Export columns are given for '${id}', which is not a list screen.`);
  }

  for (const r of opts.menuRoutes ?? []) {
    if (!servedBy(allRoutes, r)) add(checkCodes.menuWithoutScreen, r, `Menu entry '${r}' has no screen.`);
  }
  return problems;
}

/** The problems as one message: a line per problem, `code [screen] sentence`. */
export function describeProblems(problems: readonly CheckProblem[]): string {
  return problems.map((p) => `${p.code} [${p.screen}] ${p.message}`).join('\n');
}

/** Throws with every problem listed when the definitions are inconsistent. */
export function assertDefinitions(screens: readonly AnyScreen[], opts?: CheckOptions) {
  const problems = checkDefinitions(screens, opts);
  if (problems.length) throw new Error(`Screen definitions are inconsistent:\n${describeProblems(problems)}`);
}
