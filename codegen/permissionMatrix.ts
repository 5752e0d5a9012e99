/**
 * The permission matrix: each permission of the catalogue → the screens it opens, the actions it shows
 * and the API calls it may make, and every call × every seeded role. The calls' cells are the server's
 * own decision: the imported contract (src/api/index.ts `allCalls`) asked through `mayCall`
 * (src/domain/access.ts), the function src/server/http/api.ts refuses with. The screens are read from
 * the definitions in screens/.
 */
import type { CallContract } from '../src/api/contract';
import { describeAccess, mayCall } from '../src/domain/access';
import { permissionGroups, SUPER_PERMISSION } from '../src/domain/permissions';
import { demoRoles } from '../src/server/seed/demo';
import { code, document, GENERATED_MARK, table, text } from './markdown';
import type { ScreenInfo } from './screenSpec';
import { compare } from './docs';
import { isContract, isObj, items, p, shown, str, type ShowContext } from './values';

interface Grant {
  readonly permission: string;
  readonly column: 'screens' | 'actions';
  readonly text: string;
}

const labelOf = (v: unknown, ctx: ShowContext) => (typeof v === 'string' ? `“${text(v)}”` : shown(v, ctx, 'label'));
const ruleName = (v: unknown) => (typeof v === 'function' && v.name ? code(v.name) : 'an inline rule');

/** Every permission a screen names, with what it unlocks there; unknown places are found by walking the definition. */
function grantsOf(s: ScreenInfo, ctx: ShowContext): Grant[] {
  const out: Grant[] = [];
  const v = s.value;
  const where = code(s.id);
  const access = v.access;
  const accounted = new Set<unknown>();
  const rule = p(access, 'rule');
  for (const listName of ['anyOf', 'permissions']) {
    const list = p(access, listName);
    if (!list) continue;
    accounted.add(list);
    for (const perm of items(list))
      if (typeof perm === 'string') out.push({ permission: perm, column: 'screens', text: `${where} (${code(str(v.route) ?? '')})${rule ? `, with rule ${shown(rule, ctx, 'rule')}` : ''}` });
  }
  // more permissions that open the screen while a server setting is on (ScreenAccess.withSetting)
  const withSetting = p(access, 'withSetting');
  const settingList = p(withSetting, 'anyOf');
  if (Array.isArray(settingList)) {
    accounted.add(settingList);
    const setting = str(p(withSetting, 'setting')) ?? '?';
    for (const perm of items(settingList))
      if (typeof perm === 'string') out.push({ permission: perm, column: 'screens', text: `${where} (${code(str(v.route) ?? '')}) while the server setting ${code(setting)} is on` });
  }
  const create = v.createButton;
  if (str(p(create, 'permission'))) out.push({ permission: str(p(create, 'permission'))!, column: 'actions', text: `Create button ${labelOf(p(create, 'label'), ctx)} on ${where}` });
  const cr = v.changeRequests;
  if (str(p(cr, 'permission'))) out.push({ permission: str(p(cr, 'permission'))!, column: 'actions', text: `Approve or reject change requests on ${where}` });
  const actions = items(v.rowActions);
  for (const a of actions) {
    const perm = str(p(a, 'permission'));
    if (!perm) continue;
    const when = p(a, 'when');
    out.push({ permission: perm, column: 'actions', text: `Row action ${labelOf(p(a, 'label'), ctx)} on ${where}${when ? `, guard ${ruleName(when)}` : ''}` });
  }
  // Any other `permission` / `permissions` a definition declares (a capability this generator does not know yet).
  const known = new Set<unknown>([create, cr, ...actions]);
  const walk = (val: unknown, path: string, depth: number) => {
    if (depth > 8 || isContract(val) || (isObj(val) && '_zod' in val)) return;
    if (Array.isArray(val)) val.forEach((i, n) => walk(i, `${path}[${n}]`, depth + 1));
    if (!isObj(val)) return;
    for (const [k, x] of Object.entries(val)) {
      const here = path ? `${path}.${k}` : k;
      if (k === 'permission' && typeof x === 'string' && !known.has(val)) out.push({ permission: x, column: 'actions', text: `${code(here)} on ${where}` });
      else if ((k === 'permissions' || k === 'anyOf' || k === 'alsoPermissions') && Array.isArray(x) && !accounted.has(x)) {
        for (const i of x) if (typeof i === 'string') out.push({ permission: i, column: 'actions', text: `${code(here)} on ${where}` });
      } else walk(x, here, depth + 1);
    }
  };
  walk(v, '', 0);
  return out;
}

/** The heading of the role table, which tests/api/permissionMatrixCells.test.ts reads back. */
export const ROLE_TABLE_HEADING = '## Calls by seeded role';
/** A cell of the role table: the server lets the role's users make the call, or answers 403. */
export const ALLOWED = 'yes';
export const REFUSED = '403';

/**
 * `calls`: the served contracts (allCalls); `ctx`: for the contracts' exported names
 * exported names.
 */
export function renderPermissionMatrix(screens: readonly ScreenInfo[], calls: readonly CallContract[], ctx: ShowContext): string {
  const catalogue = Object.entries(permissionGroups).flatMap(([group, perms]) => (perms as readonly string[]).map((permission) => ({ permission, group })));
  const known = new Set(catalogue.map((c) => c.permission));
  const grants = screens.flatMap((s) => grantsOf(s, ctx));
  const sorted = [...calls].sort((a, b) => compare(a.path.toLowerCase(), b.path.toLowerCase()));
  const nameOf = (c: CallContract) => ctx.contractName(c) ?? c.path;
  const callText = (c: CallContract) => code(`POST /api/${c.path}`);
  // open to a user holding no permission at all: listed with its rule, not under any permission
  const open = (c: CallContract) => c.access === 'public' || mayCall(c.access, []);

  const unknownPerms = [...new Set([...grants.map((g) => g.permission), ...sorted.flatMap((c) => (typeof c.access === 'object' && 'anyOf' in c.access ? c.access.anyOf : []))])]
    .filter((perm) => !known.has(perm))
    .sort(compare);
  const rows = [...catalogue, ...unknownPerms.map((permission) => ({ permission, group: '**not in the catalogue**' }))].map(({ permission, group }) => {
    if (permission === SUPER_PERMISSION) return [code(permission), text(group), 'all (holds every permission)', 'all', 'all'];
    const mine = grants.filter((g) => g.permission === permission);
    const list = (xs: string[]) => (xs.length ? [...new Set(xs)].join('<br>') : '—');
    const unlocked = sorted.filter((c) => !open(c) && mayCall(c.access, [permission])).map(callText);
    return [code(permission), text(group), list(mine.filter((g) => g.column === 'screens').map((g) => g.text)), list(mine.filter((g) => g.column === 'actions').map((g) => g.text)), list(unlocked)];
  });

  const ruleScreens = screens
    .filter((s) => p(s.value.access, 'rule'))
    .map((s) => {
      const access = s.value.access;
      const perms = items(p(access, 'permissions')).filter((x): x is string => typeof x === 'string');
      return [code(s.id), code(str(s.value.route) ?? '?'), shown(p(access, 'rule'), ctx, 'rule'), perms.length ? perms.map(code).join(', ') : '—'];
    });
  const ruleCalls = sorted.filter((c) => typeof c.access === 'object' && 'rule' in c.access && !open(c)).map((c) => [callText(c), code(nameOf(c)), text(describeAccess(c.access))]);
  const openCalls = sorted.filter(open).map((c) => [callText(c), code(nameOf(c)), text(describeAccess(c.access))]);
  const roleRows = sorted.map((c) => [callText(c), ...demoRoles.map((r) => (mayCall(c.access, r.permissions) ? ALLOWED : REFUSED))]);

  return document([
    [
      GENERATED_MARK,
      '# Permission matrix',
      '',
      `What each permission unlocks: the screens it opens, the actions it shows and the API calls it may make. The screens are read from the definitions in ${code('screens/')}; the calls are the contracts the server serves (${code('allCalls')}, ${code('src/api/index.ts')}), each cell decided by ${code('mayCall')} (${code('src/domain/access.ts')}), the very function the server refuses with (403). The catalogue is ${code('src/domain/permissions.ts')}. A user holding ${code(SUPER_PERMISSION)} holds every permission. A screen or call open to any of several permissions appears under each of them.`,
    ],
    ['## By permission', '', ...table(['Permission', 'Group', 'Screens', 'Actions', 'API calls'], rows)],
    [
      '## Screens behind a rule',
      '',
      'Who may open these is decided by a named rule rather than a list of permissions alone.',
      '',
      ...table(['Screen', 'Route', 'Rule', 'Permissions listed'], ruleScreens),
    ],
    ruleCalls.length ? ['## Calls behind a rule', '', ...table(['Call', 'Contract', 'Access'], ruleCalls)] : [],
    [
      '## Calls without a permission',
      '',
      'A signed-in user holding no permission may make these (the rule may still refuse some permissions, e.g. the app dashboard refuses auditors).',
      '',
      ...table(['Call', 'Contract', 'Access'], openCalls),
    ],
    [
      ROLE_TABLE_HEADING,
      '',
      `Every call for a user of each role the demo seed defines (${code('src/server/seed/demo.ts')}): ${code(ALLOWED)} the server lets the call past its access check, ${code(REFUSED)} it refuses before reading the body. ${code('tests/api/permissionMatrixCells.test.ts')} signs in as a user of every role, makes every call and checks each cell against the server's answer.`,
      '',
      ...table(['Call', ...demoRoles.map((r) => text(r.name))], roleRows),
    ],
  ]);
}
