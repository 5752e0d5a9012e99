/**
 * The machine-readable model `npm run review` compares: for one checkout of the project, imported at
 * run time (the screen registry, the call contracts, the access rules, the demo roles and accounts),
 * who may call and open what, the structure of every screen and every user-visible message. Two
 * checkouts (the base revision in a temporary worktree, and the working tree) are loaded into one
 * process; each imports its own files, so the model is what that revision's code decides.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyFunction } from '../codegen/values';
import { functionText, zodRules } from '../codegen/zodRuntime';

type Dict = Record<string, unknown>;

/** What one checkout exports, as far as the review reads it (missing modules or names: empty). */
export interface Sources {
  readonly root: string;
  readonly screens: readonly Dict[];
  readonly calls: readonly Dict[];
  readonly mayCall?: (access: unknown, permissions: readonly string[]) => boolean;
  readonly accessRules: Record<string, { refusal?: string; text?: string }>;
  readonly catalogue: readonly string[];
  readonly roles: readonly { name: string; permissions: readonly string[] }[];
  readonly accounts: readonly { username: string; role: string; disabled?: number }[];
  /** Server-side rules per call path, when the revision declares them (src/server/callRules.ts). */
  readonly callRules: Record<string, { guards?: readonly AnyFunction[]; changeRequest?: Dict; fourEyes?: Dict; notes?: readonly string[] }>;
}

async function load(root: string, file: string): Promise<Dict> {
  const full = join(root, file);
  if (!existsSync(full)) return {};
  return (await import(pathToFileURL(full).href)) as Dict;
}

export async function loadSources(root: string): Promise<Sources> {
  const [registry, api, access, permissions, demo, rules] = await Promise.all([
    load(root, 'screens/index.ts'),
    load(root, 'src/api/index.ts'),
    load(root, 'src/domain/access.ts'),
    load(root, 'src/domain/permissions.ts'),
    load(root, 'src/server/seed/demo.ts'),
    load(root, 'src/server/callRules.ts'),
  ]);
  return {
    root,
    screens: (registry.screens as Dict[] | undefined) ?? [],
    calls: (api.allCalls as Dict[] | undefined) ?? [],
    mayCall: access.mayCall as Sources['mayCall'],
    accessRules: (access.accessRules as Sources['accessRules'] | undefined) ?? {},
    catalogue: (permissions.allPermissions as string[] | undefined) ?? [],
    roles: (demo.demoRoles as Sources['roles'] | undefined) ?? [],
    accounts: (demo.demoUsers as Sources['accounts'] | undefined) ?? [],
    callRules: (rules.callRules as Sources['callRules'] | undefined) ?? {},
  };
}

// ---- probes: the users whose access is compared ------------------------------------------------

export const SUPER = 'super-permission';

/** A kind of user: no sign-in, or signed in holding these permissions. */
export interface Probe {
  readonly name: string;
  readonly permissions: readonly string[] | null;
}

/**
 * The users both revisions are asked about: anonymous, no permission, each permission alone, super,
 * and each demo role of either revision. A rule that lets more of them through has got looser.
 */
export function probesFor(...sources: readonly Sources[]): Probe[] {
  const perms = [...new Set(sources.flatMap((s) => s.catalogue))].filter((p) => p !== SUPER).sort();
  const probes: Probe[] = [
    { name: 'anonymous (not signed in)', permissions: null },
    { name: 'a signed-in user with no permission', permissions: [] },
    ...perms.map((p) => ({ name: `holders of \`${p}\` alone`, permissions: [p] })),
    { name: `holders of \`${SUPER}\``, permissions: [SUPER] },
  ];
  const seen = new Set<string>();
  for (const s of sources)
    for (const r of s.roles) {
      const key = `${r.name}\n${[...r.permissions].sort().join(',')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      probes.push({
        name: `role ${r.name}${sources.length > 1 && sources.filter((o) => o.roles.some((x) => x.name === r.name && [...x.permissions].sort().join(',') === [...r.permissions].sort().join(','))).length < sources.length ? ` (as defined in ${s === sources[0] ? 'the base' : 'the working tree'})` : ''}`,
        permissions: r.permissions,
      });
    }
  return probes;
}

const holds = (held: readonly string[], wanted: readonly string[]) => held.includes(SUPER) || wanted.some((w) => held.includes(w));

// ---- the model --------------------------------------------------------------------------------

export interface CallModel {
  readonly access: string;
  /** The probes the server lets past its access check. */
  readonly allowed: readonly string[];
  readonly guards: readonly string[];
  readonly changeRequest?: string;
}

export interface ActionModel {
  readonly label: string;
  readonly permission: string;
  readonly allowed: readonly string[];
  readonly guard?: string;
  readonly runs: string;
}

export interface ScreenModel {
  readonly route: string;
  readonly title: string;
  readonly kind: string;
  readonly access: string;
  readonly allowed: readonly string[];
  readonly menu?: string;
  readonly columns: Record<string, Record<string, string>>;
  readonly filters: Record<string, Record<string, string>>;
  readonly fields: Record<string, Record<string, string>>;
  readonly actions: Record<string, ActionModel>;
  readonly settings: Record<string, string>;
}

export interface Model {
  readonly calls: Record<string, CallModel>;
  readonly screens: Record<string, ScreenModel>;
  readonly roles: Record<string, readonly string[]>;
  readonly accounts: Record<string, { role: string; enabled: boolean; permissions: readonly string[] }>;
  /** Every user-visible text, by where it is shown. */
  readonly messages: Record<string, string>;
}

const isContract = (v: unknown): v is Dict => !!v && typeof v === 'object' && typeof (v as Dict).path === 'string' && 'request' in (v as Dict) && 'access' in (v as Dict);
const isZod = (v: unknown) => !!v && typeof v === 'object' && '_zod' in (v as Dict);

/** A scalar, a function (by name or source), a contract (by path) or a small structure, as one line. */
export function valueText(v: unknown): string {
  if (typeof v === 'function') return `ƒ ${functionText(v)}`;
  if (isContract(v)) return `call ${v.path}`;
  if (isZod(v)) return 'zod schema';
  if (Array.isArray(v)) return `[${v.map(valueText).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${k}: ${valueText(x)}`)
      .join(', ')} }`;
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function flat(o: unknown, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) if (!skip.includes(k) && v !== undefined) out[k] = typeof v === 'string' ? v : valueText(v);
  return out;
}

/** Array items by a stable name: `id`, else `key`, else `from`, else `label`, else the position; repeats get `#2`. */
function keyed(items: unknown, name: (x: Dict, i: number) => string = (x, i) => String(x.id ?? x.key ?? x.from ?? (typeof x.label === 'string' ? x.label : i))): [string, Dict][] {
  if (!Array.isArray(items)) return [];
  const seen = new Map<string, number>();
  return items.map((x: Dict, i) => {
    const base = name(x ?? {}, i);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return [n > 1 ? `${base}#${n}` : base, x ?? {}];
  });
}

/** Keys whose string values are identifiers, paths or settings rather than text a user reads. */
const NOT_TEXT = new Set([
  'id',
  'key',
  'kind',
  'route',
  'to',
  'from',
  'permission',
  'path',
  'fileBase',
  'modal',
  'component',
  'valueType',
  'inputType',
  'tone',
  'currency',
  'rowKey',
  'mode',
  'value',
  'entity',
  'type',
  'name',
]);
/** Keys whose function values compute a text a user reads (shown by their source). */
const TEXT_FUNCTIONS = new Set(['label', 'title', 'message', 'success', 'failure', 'header', 'dynamicLabel', 'note', 'emptyMessage', 'requiredMessage']);

function collectTexts(v: unknown, where: string, out: Record<string, string>, depth = 0): void {
  if (depth > 10 || v === null || v === undefined || isContract(v) || isZod(v)) return;
  if (Array.isArray(v)) {
    for (const [k, x] of keyed(v)) collectTexts(x, `${where}[${k}]`, out, depth + 1);
    return;
  }
  if (typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    const here = `${where} › ${k}`;
    if (typeof x === 'string' && !NOT_TEXT.has(k) && x.trim() !== '') out[here] = x;
    else if (typeof x === 'function' && TEXT_FUNCTIONS.has(k)) out[here] = `ƒ ${functionText(x)}`;
    else if (typeof x === 'object') collectTexts(x, here, out, depth + 1);
  }
}

function zodMessages(schema: unknown, where: string, out: Record<string, string>): void {
  const seen = new Map<string, number>();
  for (const r of zodRules(schema)) {
    if (r.message === undefined) continue;
    const base = `${where} › ${r.field} › ${r.rule.replace(/\(.*$/s, '')}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out[n > 1 ? `${base}#${n}` : base] = r.message;
  }
}

function screenAccess(access: Dict | undefined, permissions: readonly string[]): boolean {
  if (!access) return false;
  if (typeof access.rule === 'function') return Boolean((access.rule as (p: readonly string[]) => boolean)(permissions));
  return holds(permissions, (access.anyOf as string[] | undefined) ?? []);
}

function screenModel(s: Dict, probes: readonly Probe[], messages: Record<string, string>): ScreenModel {
  const id = String(s.id);
  const access = s.access as Dict | undefined;
  const signedIn = probes.filter((p) => p.permissions !== null);
  const menu = s.menu as Dict | undefined;
  const actions: Record<string, ActionModel> = {};
  const tabs = keyed(s.tabs);
  for (const [k, a] of keyed(s.rowActions)) {
    const perms = [String(a.permission), ...((a.anyOf as string[] | undefined) ?? [])];
    const run = (a.run ?? {}) as Dict;
    actions[k] = {
      label: typeof a.label === 'string' ? a.label : valueText(a.label),
      permission: perms.join(' or '),
      allowed: signedIn.filter((p) => holds(p.permissions!, perms)).map((p) => p.name),
      guard: a.when ? functionText(a.when) : undefined,
      runs: run.kind === 'call' && isContract(run.call) ? `call ${run.call.path}` : `${String(run.kind)}${run.to ? ` ${valueText(run.to)}` : ''}`,
    };
  }
  const button = s.createButton as Dict | undefined;
  if (button)
    actions['(create button)'] = {
      label: String(button.label),
      permission: String(button.permission),
      allowed: signedIn.filter((p) => holds(p.permissions!, [String(button.permission)])).map((p) => p.name),
      runs: `navigate ${String(button.to)}`,
    };
  const cr = s.changeRequests as Dict | undefined;
  if (cr) {
    const perms = [String(cr.permission), ...((cr.alsoPermissions as string[] | undefined) ?? [])];
    actions['(approve or reject change requests)'] = {
      label: `${String(cr.entity)} change requests`,
      permission: perms.join(' or '),
      allowed: signedIn.filter((p) => holds(p.permissions!, perms)).map((p) => p.name),
      runs: isContract(cr.approve) ? `call ${cr.approve.path}` : '?',
    };
  }
  const fields: Record<string, Record<string, string>> = {};
  for (const [k, f] of keyed(s.fields)) fields[k] = flat(f, ['key']);
  const source = s.source as Dict | undefined;
  const settings: Record<string, string> = flat(s, [
    'id',
    'kind',
    'route',
    'title',
    'access',
    'menu',
    'columns',
    'filters',
    'fields',
    'rowActions',
    'createButton',
    'changeRequests',
    'tabs',
    'breadcrumb',
    'source',
    'submit',
    'load',
    'options',
    'schema',
    'messages',
  ]);
  if (source) Object.assign(settings, Object.fromEntries(Object.entries(flat(source)).map(([k, v]) => [`source.${k}`, v])));
  for (const part of ['submit', 'load', 'options'] as const) if (s[part]) Object.assign(settings, Object.fromEntries(Object.entries(flat(s[part])).map(([k, v]) => [`${part}.${k}`, v])));
  for (const [k, t] of tabs) Object.assign(settings, Object.fromEntries(Object.entries(flat(t, ['label'])).map(([p, v]) => [`tab ${k}.${p}`, v])));
  collectTexts(s, `screen ${id}`, messages);
  if (s.kind === 'form' && s.schema) zodMessages(s.schema, `screen ${id} › form rules`, messages);
  return {
    route: String(s.route),
    title: String(s.title),
    kind: String(s.kind),
    access: access && typeof access.rule === 'function' ? `rule ${functionText(access.rule)}` : `any of ${((access?.anyOf as string[] | undefined) ?? []).join(', ')}`,
    allowed: signedIn.filter((p) => screenAccess(access, p.permissions!)).map((p) => p.name),
    menu: menu ? `${String(menu.section)} › ${String(menu.label)} (order ${String(menu.order)})` : undefined,
    columns: Object.fromEntries(keyed(s.columns).map(([k, c]) => [k, flat(c, ['key'])])),
    filters: Object.fromEntries(keyed(s.filters).map(([k, f]) => [k, flat(f, ['key'])])),
    fields,
    actions,
    settings,
  };
}

function callAccess(src: Sources, access: unknown, p: Probe): boolean {
  if (p.permissions === null) return access === 'public';
  if (src.mayCall) return src.mayCall(access, p.permissions);
  if (access === 'public' || access === 'authenticated') return true;
  const a = access as Dict;
  return Array.isArray(a.anyOf) ? holds(p.permissions, a.anyOf as string[]) : false;
}

/** One line for a call's access, the same wording for every revision (src/domain/access.ts `describeAccess`). */
function describeCallAccess(src: Sources, access: unknown): string {
  if (access === 'public') return 'public (no sign-in)';
  if (access === 'authenticated') return 'any signed-in user';
  const a = (access ?? {}) as Dict;
  if (typeof a.rule === 'string') return `rule ${a.rule}: ${src.accessRules[a.rule]?.text ?? '(not in accessRules)'}`;
  if (Array.isArray(a.anyOf)) return `any of ${a.anyOf.join(', ')} (or ${SUPER})`;
  return valueText(access);
}

export function buildModel(src: Sources, probes: readonly Probe[]): Model {
  const messages: Record<string, string> = {};
  const calls: Record<string, CallModel> = {};
  for (const c of src.calls) {
    const path = String(c.path);
    const rules = src.callRules[path] ?? src.callRules[path.toLowerCase()];
    const cr = rules?.changeRequest;
    calls[path] = {
      access: describeCallAccess(src, c.access),
      allowed: probes.filter((p) => callAccess(src, c.access, p)).map((p) => p.name),
      guards: [...(rules?.guards ?? []).map((g) => functionText(g)), ...(rules?.fourEyes ? ['four-eyes (a second person approves large amounts)'] : [])],
      changeRequest: cr ? valueText(cr) : undefined,
    };
    zodMessages(c.request, `call ${path} › request`, messages);
  }
  for (const [name, rule] of Object.entries(src.accessRules)) if (typeof rule.refusal === 'string') messages[`access rule ${name} › refusal`] = rule.refusal;
  const screens: Record<string, ScreenModel> = {};
  for (const s of src.screens) screens[String(s.id)] = screenModel(s, probes, messages);
  const roles = Object.fromEntries(src.roles.map((r) => [r.name, [...r.permissions].sort()]));
  const accounts = Object.fromEntries(src.accounts.map((a) => [a.username, { role: a.role, enabled: a.disabled !== 1, permissions: roles[a.role] ?? [] }]));
  return { calls, screens, roles, accounts, messages };
}
