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
import { items, str, type Val, type Written } from './evaluate';
import { code, document, GENERATED_MARK, table, text } from './markdown';
import { compare, type ContractInfo, type ScreenInfo } from './read';
import { asWritten } from './screenSpec';

interface Grant {
  readonly permission: string;
  readonly column: 'screens' | 'actions';
  readonly text: string;
}

function p(v: Val | undefined, name: string): Written | undefined {
  return v?.kind === 'object' ? v.props.get(name) : undefined;
}

function labelOf(w: Written | undefined): string {
  const s = str(w?.value);
  return s !== undefined ? `“${text(s)}”` : asWritten(w);
}

/** Every permission a screen names, with what it unlocks there; unknown places are found by walking the definition. */
function grantsOf(s: ScreenInfo): Grant[] {
  const out: Grant[] = [];
  const v = s.value;
  const where = code(s.id);
  const route = str(p(v, 'route')?.value) ?? '';
  const access = p(v, 'access');
  const accounted = new Set<Val>();
  const rule = p(access?.value, 'rule');
  for (const listName of ['anyOf', 'permissions']) {
    const list = p(access?.value, listName);
    if (!list) continue;
    accounted.add(list.value);
    for (const i of items(list.value)) {
      const perm = str(i.value);
      if (perm) out.push({ permission: perm, column: 'screens', text: `${where} (${code(route)})${rule ? `, with rule ${asWritten(rule)}` : ''}` });
    }
  }
  // more permissions that open the screen while a server setting is on (ScreenAccess.withSetting)
  const withSetting = p(access?.value, 'withSetting');
  const settingList = p(withSetting?.value, 'anyOf');
  if (settingList) {
    accounted.add(settingList.value);
    const setting = str(p(withSetting!.value, 'setting')?.value) ?? '?';
    for (const i of items(settingList.value)) {
      const perm = str(i.value);
      if (perm) out.push({ permission: perm, column: 'screens', text: `${where} (${code(route)}) while the server setting ${code(setting)} is on` });
    }
  }
  const create = p(v, 'createButton');
  const createPerm = p(create?.value, 'permission');
  if (createPerm && str(createPerm.value)) {
    accounted.add(createPerm.value);
    out.push({ permission: str(createPerm.value)!, column: 'actions', text: `Create button ${labelOf(p(create!.value, 'label'))} on ${where}` });
  }
  const cr = p(v, 'changeRequests');
  const crPerm = p(cr?.value, 'permission');
  if (crPerm && str(crPerm.value)) {
    accounted.add(crPerm.value);
    out.push({ permission: str(crPerm.value)!, column: 'actions', text: `Approve or reject change requests on ${where}` });
  }
  for (const a of items(p(v, 'rowActions')?.value)) {
    const perm = p(a.value, 'permission');
    if (!perm || !str(perm.value)) continue;
    accounted.add(perm.value);
    const when = p(a.value, 'when');
    out.push({ permission: str(perm.value)!, column: 'actions', text: `Row action ${labelOf(p(a.value, 'label'))} on ${where}${when ? `, guard ${asWritten(when).split(' (')[0]}` : ''}` });
  }
  // Any other `permission` / `permissions` a definition declares (a capability this generator does not know yet).
  const walk = (val: Val, path: string, depth: number) => {
    if (depth > 8) return;
    if (val.kind === 'object') {
      for (const [k, w] of val.props) {
        const here = path ? `${path}.${k}` : k;
        if (k === 'permission' && str(w.value) && !accounted.has(w.value)) out.push({ permission: str(w.value)!, column: 'actions', text: `${code(here)} on ${where}` });
        else if ((k === 'permissions' || k === 'anyOf') && w.value.kind === 'array' && !accounted.has(w.value)) {
          for (const i of w.value.items) if (str(i.value)) out.push({ permission: str(i.value)!, column: 'actions', text: `${code(here)} on ${where}` });
        } else if (k !== 'call' && k !== 'approve') walk(w.value, here, depth + 1);
      }
    } else if (val.kind === 'array') val.items.forEach((i, n) => walk(i.value, `${path}[${n}]`, depth + 1));
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
 * `calls`: the served contracts (allCalls); `contracts`: the contracts read from source, for their
 * exported names.
 */
export function renderPermissionMatrix(screens: readonly ScreenInfo[], calls: readonly CallContract[], contracts: readonly ContractInfo[]): string {
  const catalogue = Object.entries(permissionGroups).flatMap(([group, perms]) => (perms as readonly string[]).map((permission) => ({ permission, group })));
  const known = new Set(catalogue.map((c) => c.permission));
  const grants = screens.flatMap(grantsOf);
  const sorted = [...calls].sort((a, b) => compare(a.path.toLowerCase(), b.path.toLowerCase()));
  const nameOf = (c: CallContract) => contracts.find((i) => i.path === c.path)?.name ?? c.path;
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
    .filter((s) => p(s.value, 'access') && p(p(s.value, 'access')!.value, 'rule'))
    .map((s) => {
      const access = p(s.value, 'access')!.value;
      const perms = items(p(access, 'permissions')?.value)
        .map((i) => str(i.value))
        .filter((x): x is string => !!x);
      return [code(s.id), code(str(p(s.value, 'route')?.value) ?? '?'), asWritten(p(access, 'rule')), perms.length ? perms.map(code).join(', ') : '—'];
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
    ['## Screens behind a rule', '', 'Who may open these is decided by a named rule rather than a list of permissions alone.', '', ...table(['Screen', 'Route', 'Rule', 'Permissions listed'], ruleScreens)],
    ruleCalls.length ? ['## Calls behind a rule', '', ...table(['Call', 'Contract', 'Access'], ruleCalls)] : [],
    ['## Calls without a permission', '', 'A signed-in user holding no permission may make these (the rule may still refuse some permissions, e.g. the app dashboard refuses auditors).', '', ...table(['Call', 'Contract', 'Access'], openCalls)],
    [
      ROLE_TABLE_HEADING,
      '',
      `Every call for a user of each role the demo seed defines (${code('src/server/seed/demo.ts')}): ${code(ALLOWED)} the server lets the call past its access check, ${code(REFUSED)} it refuses before reading the body. ${code('tests/api/permissionMatrixCells.test.ts')} signs in as a user of every role, makes every call and checks each cell against the server's answer.`,
      '',
      ...table(['Call', ...demoRoles.map((r) => text(r.name))], roleRows),
    ],
  ]);
}
