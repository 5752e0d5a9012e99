/**
 * Start-up checks of the definitions: what the compiler cannot check, reported with a stable code and
 * a sentence (in the spirit of Django's checks.py). Run by the console and the server at start and by a test.
 */
import type { AnyScreen, FilterDef } from './definitions';
import { findCall } from '../api';
import { isPermission } from '../domain/permissions';
import { hasRowModal } from './views/RowActions';

export interface CheckProblem {
  code: string;
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
} as const;

function permissionsOf(screen: AnyScreen): string[] {
  const out: string[] = [];
  const a = screen.access;
  out.push(...('anyOf' in a ? a.anyOf : a.permissions));
  if (screen.kind === 'list') {
    if (screen.createButton) out.push(screen.createButton.permission);
    if (screen.changeRequests) out.push(screen.changeRequests.permission);
    for (const action of screen.rowActions ?? []) if (action.permission) out.push(action.permission);
  }
  return out;
}

function callsOf(screen: AnyScreen): string[] {
  if (screen.kind === 'list') {
    const out = [screen.source.call.path];
    if (screen.changeRequests) out.push(screen.changeRequests.approve.path);
    for (const a of screen.rowActions ?? []) if (a.run.kind === 'call') out.push(a.run.call.path);
    return out;
  }
  if (screen.kind === 'form') return [screen.submit.call.path, ...(screen.options ? [screen.options.call.path] : []), ...(screen.load ? [screen.load.call.path] : [])];
  return [];
}

export interface CheckOptions {
  /** Menu entries that point at a route (for hand-written menus); each must match a screen. */
  menuRoutes?: readonly string[];
  /** Skip the modal-registry check (the server has no modals). */
  skipModals?: boolean;
}

export function checkDefinitions(screens: readonly AnyScreen[], opts: CheckOptions = {}): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const routes = new Map<string, string>();
  const ids = new Set<string>();
  for (const s of screens) {
    if (ids.has(s.id)) problems.push({ code: checkCodes.duplicateId, screen: s.id, message: `Two screens have the id '${s.id}'.` });
    ids.add(s.id);
    const route = s.route.toLowerCase();
    const other = routes.get(route);
    if (other) problems.push({ code: checkCodes.duplicateRoute, screen: s.id, message: `Screens '${other}' and '${s.id}' are both on route '${s.route}'.` });
    routes.set(route, s.id);
    for (const p of permissionsOf(s)) {
      if (!isPermission(p)) problems.push({ code: checkCodes.unknownPermission, screen: s.id, message: `Permission '${p}' is not in the permission catalogue.` });
    }
    for (const path of callsOf(s)) {
      if (!findCall(path)) problems.push({ code: checkCodes.callWithoutContract, screen: s.id, message: `Call '${path}' has no contract in src/api.` });
    }
    if (s.kind === 'list') {
      for (const a of s.rowActions ?? []) {
        if (!a.permission) problems.push({ code: checkCodes.actionWithoutPermission, screen: s.id, message: `Row action '${a.id}' declares no permission.` });
        if (!opts.skipModals && a.run.kind === 'modal' && !hasRowModal(a.run.modal)) problems.push({ code: checkCodes.unknownModal, screen: s.id, message: `Row action '${a.id}' opens modal '${a.run.modal}', which is not registered.` });
      }
      const keys = new Set(s.columns.map((c) => c.key));
      for (const c of s.columns) {
        if (c.export !== false && !keys.has(c.key)) problems.push({ code: checkCodes.exportColumnUnknown, screen: s.id, message: `Export column '${c.key}' is not among the list's columns.` });
      }
      const filters: readonly FilterDef[] = s.filters ?? [];
      void filters;
    }
  }
  for (const r of opts.menuRoutes ?? []) {
    if (!routes.has(r.toLowerCase())) problems.push({ code: checkCodes.menuWithoutScreen, screen: r, message: `Menu entry '${r}' has no screen.` });
  }
  return problems;
}

/** Throws with every problem listed when the definitions are inconsistent. */
export function assertDefinitions(screens: readonly AnyScreen[], opts?: CheckOptions) {
  const problems = checkDefinitions(screens, opts);
  if (problems.length) throw new Error(`Screen definitions are inconsistent:\n${problems.map((p) => `${p.code} [${p.screen}] ${p.message}`).join('\n')}`);
}
