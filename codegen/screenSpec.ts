/**
 * One human-readable Markdown spec per screen, rendered from the imported definition: route, menu,
 * permission; columns, filters, row actions (permission, guard name and doc comment), form fields and
 * their zod rules with exact messages, exports, page size and sort, and the server rules behind each
 * call. Properties the generator does not know are shown as they are, so a new capability of the
 * runtime appears in the spec before this file learns it.
 */
import { exportFieldsOf } from '../src/definitions/exportFields';
import { exportTypeOf, type CellKind } from '../src/definitions/definitions';
import { cellKinds, isCellKind } from '../src/definitions/cellKinds';
import { exportFileName, FILE_STAMP_FORMAT, fileStamp } from '../src/formats/cells';
import { fetchCountOptions } from '../src/domain/validation';
import { describeAccess } from '../src/domain/access';
import { code, document, GENERATED_MARK, table, text } from './markdown';
import { serverRulesSection } from './serverRules';
import { bool, isContract, isObj, items, num, p, shown, str, type Obj, type ShowContext } from './values';
import { refinementsOf, zodRules } from './zodRuntime';

export interface ScreenInfo {
  readonly id: string;
  readonly kind: string;
  readonly value: Obj;
  /** Where it is defined (project-relative) and under which name. */
  readonly file: string;
  readonly name: string;
  /** In the registry (screens/index.ts); undefined when no registry was read. */
  readonly registered?: boolean;
}

/** How the runtime shows each cell kind (src/console/views/cells.tsx, src/console/format.ts). */

const SCREEN_COMMON = ['kind', 'id', 'route', 'title', 'breadcrumb', 'access', 'menu'];
const LIST_KNOWN = [
  'source',
  'rowKey',
  'columns',
  'pinnedColumns',
  'actionsBefore',
  'filters',
  'pageSize',
  'defaultSort',
  'emptyMessage',
  'lockedWhen',
  'rowSummary',
  'clearButton',
  'createButton',
  'changeRequests',
  'rowActions',
  'exports',
  'countCards',
  'footer',
  'tabs',
];
const FORM_KNOWN = ['mode', 'schema', 'defaults', 'fields', 'options', 'load', 'submit', 'messages', 'back'];
const CUSTOM_KNOWN = ['component', 'bare'];

/** A label or other text: the text itself when it is a string, else as it is. */
function label(v: unknown, ctx: ShowContext, key?: string): string {
  return typeof v === 'string' ? text(v) : shown(v, ctx, key);
}

/** An exact message: in a code span, so no character of it is read as Markdown. */
const message = (v: unknown, ctx: ShowContext, key?: string) => shown(v, ctx, key);

function yesNo(v: unknown, dflt: string, ctx: ShowContext): string {
  if (v === undefined) return dflt;
  const b = bool(v);
  return b === undefined ? shown(v, ctx) : b ? 'yes' : 'no';
}

function callText(v: unknown, ctx: ShowContext): string {
  if (!isContract(v)) return shown(v, ctx);
  return `${shown(v, ctx)} — ${accessText(v.access)}`;
}

/** A contract's access as the matrix words it, with the permissions in code spans. */
function accessText(access: unknown): string {
  if (isObj(access) && Array.isArray(access.anyOf)) return `any of ${access.anyOf.map((x) => code(String(x))).join(', ')}`;
  return text(describeAccess(access as never));
}

function screenAccessText(v: unknown, ctx: ShowContext): string {
  if (isObj(v) && 'rule' in v) {
    const perms = items(v.permissions).filter((x): x is string => typeof x === 'string');
    return `rule ${shown(v.rule, ctx, 'rule')}${perms.length ? `; permissions ${perms.map(code).join(', ')}` : ''}`;
  }
  // ScreenAccess.withSetting: more permissions that open the screen while a server setting is on
  const withSetting = isObj(v) ? v.withSetting : undefined;
  const setting = isObj(withSetting) && typeof withSetting.setting === 'string' ? withSetting.setting : undefined;
  const settingPerms = isObj(withSetting) ? items(withSetting.anyOf).filter((x): x is string => typeof x === 'string') : [];
  if (isObj(v) && Array.isArray(v.anyOf) && setting && settingPerms.length > 0) {
    const onlyWhenOn = `while the server setting ${code(setting)} is on: any of ${settingPerms.map(code).join(', ')} (or ${code('super-permission')})`;
    return v.anyOf.length === 0 ? `only ${onlyWhenOn}` : `${accessText(v)} (or ${code('super-permission')}); also, ${onlyWhenOn}`;
  }
  return `${accessText(v)} (or ${code('super-permission')})`;
}

/** The other properties of an object, `name: value` joined, for the "More" cells. */
function moreOf(v: unknown, known: readonly string[], ctx: ShowContext): string {
  if (!isObj(v)) return '';
  return Object.entries(v)
    .filter(([k, x]) => !known.includes(k) && x !== undefined)
    .map(([k, x]) => `${k}: ${shown(x, ctx, k)}`)
    .join('<br>');
}

function otherProperties(v: Obj, known: readonly string[], ctx: ShowContext): string[] {
  const rows = Object.entries(v)
    .filter(([k]) => !known.includes(k))
    .map(([k, x]) => [code(k), shown(x, ctx, k)]);
  if (!rows.length) return [];
  return ['## Other properties', '', 'Properties the generator does not know, as they are:', '', ...table(['Property', 'Value'], rows)];
}

// ---- the sections -----------------------------------------------------------------------------

function header(s: ScreenInfo, ctx: ShowContext): string[] {
  const v = s.value;
  const title = str(v.title) ?? s.id;
  const crumbs = items(v.breadcrumb)
    .map((c) => `${label(p(c, 'label'), ctx)}${str(p(c, 'to')) ? ` (${code(str(p(c, 'to'))!)})` : ''}`)
    .join(' › ');
  const menu = v.menu;
  let menuText = 'none';
  if (isObj(menu)) {
    const route = str(v.route) ?? '';
    menuText = `${label(menu.section, ctx)} › ${label(menu.label, ctx)} (order ${num(menu.order) ?? shown(menu.order, ctx)}; links to ${code(route.replace(/\/\$\w+$/, ''))})${menu.hiddenFromSuper ? '; hidden from super users' : ''}`;
    const more = moreOf(menu, ['section', 'label', 'order', 'hiddenFromSuper'], ctx);
    if (more) menuText += `; ${more}`;
  } else if (menu !== undefined) menuText = shown(menu, ctx);
  const rows = [
    ['Screen id', code(s.id)],
    ['Kind', s.kind],
    ['Route', shown(v.route, ctx)],
    ['Title', label(v.title, ctx)],
    ['Breadcrumb', crumbs || '—'],
    ['Access', screenAccessText(v.access, ctx)],
    ['Menu', menuText],
    ['Defined in', `${code(s.file)} as ${code(s.name)}`],
  ];
  const out = [GENERATED_MARK, `# ${text(title)}`, '', ...table(['Property', 'Value'], rows)];
  if (s.registered === false) out.push('', `**Not in the registry** (${code('screens/index.ts')}): the console does not show this screen.`);
  return out;
}

function sourceSection(heading: string, source: unknown, ctx: ShowContext): string[] {
  if (source === undefined) return [];
  if (!isObj(source)) return [heading, '', `- ${shown(source, ctx)}`];
  const lines = [`- Call: ${callText(source.call, ctx)}`];
  if (source.request) lines.push(`- Request from the filters: ${shown(source.request, ctx, 'request')}`);
  if (source.rows) lines.push(`- Rows: ${shown(source.rows, ctx, 'rows')}`);
  if (source.changeRequests) lines.push(`- Change requests: ${shown(source.changeRequests, ctx, 'changeRequests')}`);
  for (const [k, x] of Object.entries(source)) if (!['call', 'request', 'rows', 'changeRequests'].includes(k)) lines.push(`- ${k}: ${shown(x, ctx, k)}`);
  return [heading, '', ...lines];
}

function columnsSection(v: Obj, withExport: boolean, ctx: ShowContext): string[] {
  const rows = items(v.columns).map((c) => {
    if (!isObj(c)) return [shown(c, ctx), '', '', '', '', ...(withExport ? [''] : []), ''];
    const kind = str(c.kind) ?? 'text';
    let fmt = isCellKind(kind) ? cellKinds[kind].spec : '—';
    if (c.zeroAsDash === true) fmt += "; '-' for zero";
    const panel = items(c.panel);
    const panelLabels = panel.map((f) => label(p(f, 'label'), ctx)).join(', ');
    if (panel.length) fmt = `expandable panel of ${panelLabels}`;
    let exp = '';
    if (withExport) {
      if (c.export === false) exp = 'no';
      else if (kind === 'image') exp = 'no (images are not exported)';
      else if (panel.length) exp = `as ${panel.length} columns: ${panelLabels}`;
      else exp = exportTypeOf(kind as CellKind);
    }
    const item = items(c.itemFields);
    let more = moreOf(c, ['key', 'header', 'kind', 'sortable', 'export', 'zeroAsDash', 'panel', 'itemFields'], ctx);
    if (item.length) more = [`item fields: ${item.map((f) => `${label(p(f, 'label'), ctx)} (${code(str(p(f, 'key')) ?? '?')})`).join(', ')}`, more].filter(Boolean).join('<br>');
    return [label(c.header, ctx), shown(c.key, ctx), c.kind !== undefined ? kind : 'text (default)', fmt, yesNo(c.sortable, 'yes', ctx), ...(withExport ? [exp] : []), more];
  });
  return ['## Columns', '', ...table(['Header', 'Key', 'Kind', 'Format', 'Sortable', ...(withExport ? ['Export'] : []), 'More'], rows)];
}

/** An option's value: `''` for the empty string. */
function optionValue(o: unknown): string {
  const v = p(o, 'value');
  return v === '' ? code("''") : code(String(v));
}

const optionsText = (options: unknown, ctx: ShowContext) => (Array.isArray(options) ? options.map((o) => `${optionValue(o)} ${label(p(o, 'label'), ctx)}`).join(', ') : shown(options, ctx, 'options'));

function filterLimits(f: Obj, ctx: ShowContext): string {
  switch (f.kind) {
    case 'text':
      return num(f.maxLength) !== undefined ? `at most ${f.maxLength} characters` : `maxLength ${shown(f.maxLength, ctx)}`;
    case 'fetchCount':
      return `rows to fetch: ${fetchCountOptions.map((o) => o.label).join(', ')}`;
    case 'select':
      return `options: ${optionsText(f.options, ctx)}`;
    case 'dataSelect':
      return `options from the reply: ${shown(f.options, ctx, 'options')}; first option ${label(f.allLabel, ctx)} (value '')`;
    case 'dateTimeRange':
      return 'From and To capped at now, To not before From; default today 00:00:00 to 23:59:59';
    case 'date':
      return 'capped at today; default today';
    default:
      return '—';
  }
}

function filtersSection(v: Obj, ctx: ShowContext): string[] {
  const filters = items(v.filters);
  if (!filters.length) return ['## Filters', '', 'None: the list loads when the screen opens.'];
  const rows = filters.map((f) => {
    if (!isObj(f)) return [shown(f, ctx), '', '', '', ''];
    const kind = str(f.kind) ?? '?';
    if (kind === 'dateTimeRange') {
      const labels = `${f.fromLabel !== undefined ? label(f.fromLabel, ctx) : 'From'} / ${f.toLabel !== undefined ? label(f.toLabel, ctx) : 'To'}`;
      return [kind, `${code(str(f.from) ?? '?')} / ${code(str(f.to) ?? '?')}`, labels, filterLimits(f, ctx), moreOf(f, ['kind', 'from', 'to', 'fromLabel', 'toLabel'], ctx)];
    }
    const lbl = f.label !== undefined ? label(f.label, ctx) : kind === 'fetchCount' ? 'Fetch Count' : '—';
    return [kind, code(str(f.key) ?? '?'), lbl, filterLimits(f, ctx), moreOf(f, ['kind', 'key', 'label', 'maxLength', 'options', 'allLabel'], ctx)];
  });
  return ['## Filters', '', 'The list loads on Search.', '', ...table(['Kind', 'Key', 'Label', 'Limits', 'More'], rows)];
}

/** The row drawer's head: the amount and currency keys, the statuses shown as tags. */
function rowSummaryText(v: unknown, ctx: ShowContext): string {
  if (!isObj(v)) return shown(v, ctx);
  const statuses = items(v.statuses).map((k) => code(str(k) ?? '?'));
  return `amount ${code(str(v.amount) ?? '?')} in ${code(str(v.currency) ?? '?')}${statuses.length ? `; statuses ${statuses.join(', ')} as tags` : ''}`;
}

function tableSection(v: Obj, ctx: ShowContext): string[] {
  const sort = v.defaultSort;
  let sortText = `${code('id')} ascending (runtime default)`;
  if (isObj(sort)) sortText = `${code(str(sort.key) ?? '?')} ${sort.desc === true ? 'descending' : sort.desc === false ? 'ascending' : shown(sort.desc, ctx)}`;
  else if (sort !== undefined) sortText = shown(sort, ctx);
  const rows = [
    ['Page size', v.pageSize !== undefined ? (num(v.pageSize) !== undefined ? String(v.pageSize) : shown(v.pageSize, ctx)) : '50 (runtime default)'],
    ['Default sort', sortText],
    ['Row key', v.rowKey !== undefined ? shown(v.rowKey, ctx) : '—'],
    ['Pinned (kept in view, in their places)', v.pinnedColumns !== undefined ? shown(v.pinnedColumns, ctx) : '—'],
    ['Action column', v.actionsBefore !== undefined ? `before ${shown(v.actionsBefore, ctx)}` : 'last (runtime default)'],
    ['Empty message', v.emptyMessage !== undefined ? message(v.emptyMessage, ctx) : `${code('No records found.')} (runtime default)`],
    ['Locked rows', v.lockedWhen !== undefined ? `a lock icon instead of the actions when ${shown(v.lockedWhen, ctx, 'lockedWhen')}` : '—'],
    ...(v.rowSummary !== undefined ? [['Row drawer head', rowSummaryText(v.rowSummary, ctx)]] : []),
    ['Clear All Filters button', yesNo(v.clearButton, 'no', ctx)],
  ];
  return ['## Table', '', ...table(['Setting', 'Value'], rows)];
}

function createButtonSection(v: Obj, ctx: ShowContext): string[] {
  const b = v.createButton;
  if (b === undefined) return [];
  if (!isObj(b)) return ['## Create button', '', shown(b, ctx)];
  const more = moreOf(b, ['label', 'permission', 'to'], ctx);
  return ['## Create button', '', `${label(b.label, ctx)} → ${code(str(b.to) ?? '?')}, permission ${shown(b.permission, ctx)}${more ? `; ${more}` : ''}`];
}

function changeRequestsSection(v: Obj, ctx: ShowContext): string[] {
  const c = v.changeRequests;
  if (c === undefined) return [];
  if (!isObj(c)) return ['## Change requests', '', shown(c, ctx)];
  const entity = str(c.entity) ?? '?';
  const lines = [
    `- Shown to: ${shown(c.permission, ctx)}`,
    `- Approve or reject: ${callText(c.approve, ctx)}`,
    `- Entity: ${text(entity)} (toasts ${code(`${entity} approved successfully`)}, ${code(`${entity} rejected successfully`)}, ${code(`${entity} approved failed!`)}, ${code(`${entity} rejected failed!`)})`,
  ];
  const more = moreOf(c, ['permission', 'approve', 'entity'], ctx);
  if (more) lines.push(`- ${more}`);
  return ['## Change requests', '', ...lines];
}

function runLines(run: unknown, ctx: ShowContext): string[] {
  if (!isObj(run)) return [`- Runs: ${shown(run, ctx)}`];
  const lines: string[] = [];
  if (run.kind === 'navigate') lines.push(`- Runs: go to ${shown(run.to, ctx, 'to')}`);
  else if (run.kind === 'modal') lines.push(`- Runs: opens the modal ${shown(run.modal, ctx)}`);
  else if (run.kind === 'call') {
    lines.push(`- Runs: ${callText(run.call, ctx)}`, `- Body: ${shown(run.body, ctx, 'body')}`);
    const confirm = run.confirm;
    if (isObj(confirm)) {
      lines.push(`- Confirm: ${label(confirm.title, ctx)}, message ${shown(confirm.message, ctx, 'message')}${confirm.danger === true ? ', danger' : ''}`);
      const about = confirm.about;
      if (isObj(about) && about.kind === 'moneyAction')
        lines.push(
          `- About: the money action ${code(str(about.action) ?? '?')}: beneath the message its summary (\`moneyActionSummary\`), on the confirm button its verb (\`moneyActionVerb\`), from \`src/domain/moneyActionSummary.ts\``,
        );
      else if (about !== undefined) lines.push(`- About: ${shown(about, ctx, 'about')}`);
    } else if (confirm !== undefined) lines.push(`- Confirm: ${shown(confirm, ctx)}`);
    const input = run.input;
    if (isObj(input))
      lines.push(
        `- Asks for: ${label(input.label, ctx)}, at most ${num(input.maxLength) ?? shown(input.maxLength, ctx)} characters${
          input.tooLongMessage !== undefined ? ` (longer: ${message(input.tooLongMessage, ctx)})` : ''
        }, ${input.requiredMessage !== undefined ? `required message ${message(input.requiredMessage, ctx)}` : 'optional (blank is none)'}`,
      );
    else if (input !== undefined) lines.push(`- Asks for: ${shown(input, ctx)}`);
    lines.push(`- Success: ${message(run.success, ctx, 'success')}`, `- Failure: ${message(run.failure, ctx, 'failure')}`);
  } else lines.push(`- Runs: ${shown(run.kind, ctx)}`);
  for (const [k, x] of Object.entries(run)) if (!['kind', 'to', 'modal', 'call', 'body', 'confirm', 'input', 'success', 'failure'].includes(k)) lines.push(`- ${k}: ${shown(x, ctx, k)}`);
  return lines;
}

function rowActionsSection(v: Obj, ctx: ShowContext): string[] {
  const actions = items(v.rowActions);
  if (!actions.length) return ['## Row actions', '', 'None.'];
  const out = ['## Row actions'];
  for (const a of actions) {
    if (!isObj(a)) {
      out.push('', `- ${shown(a, ctx)}`);
      continue;
    }
    const id = str(a.id) ?? '?';
    const lines = [`### ${typeof a.label === 'string' ? text(a.label) : id} (${code(id)})`, ''];
    if (typeof a.label !== 'string') lines.push(`- Label: ${shown(a.label, ctx, 'label')}`);
    lines.push(`- Permission: ${a.permission !== undefined ? shown(a.permission, ctx) : '**none**'}`);
    lines.push(`- Guard: ${a.when !== undefined ? shown(a.when, ctx, 'when') : 'none (every row)'}`);
    lines.push(...runLines(a.run, ctx));
    if (a.tone === 'danger') lines.push('- Style: danger (cannot be undone)');
    for (const [k, x] of Object.entries(a)) if (!['id', 'label', 'permission', 'when', 'run', 'tone'].includes(k)) lines.push(`- ${k}: ${shown(x, ctx, k)}`);
    out.push('', ...lines);
  }
  return out;
}

function exportsSection(v: Obj, ctx: ShowContext): string[] {
  const e = v.exports;
  if (e === undefined) return ['## Exports', '', 'None.'];
  if (!isObj(e)) return ['## Exports', '', shown(e, ctx)];
  const fileBase = str(e.fileBase);
  const stamp = new Date(2000, 0, 2, 3, 4, 5);
  const name = (ext: 'xlsx' | 'pdf') =>
    fileBase === undefined
      ? shown(e.fileBase, ctx)
      : code(exportFileName({ fileBase, title: '', username: '', now: stamp, timeZone: 'UTC' }, ext).replace(fileStamp({ now: stamp, timeZone: 'UTC' }), FILE_STAMP_FORMAT));
  const lines = [`- Excel: ${name('xlsx')}`, `- PDF: ${name('pdf')}`, `- Title: ${label(e.title, ctx)}`];
  const more = moreOf(e, ['fileBase', 'title'], ctx);
  if (more) lines.push(`- ${more}`);
  const fields = exportFieldsOf({ columns: items(v.columns) as never[] });
  const rows = fields.map((f) => [text(String(f.header)), code(String(f.dataKey)), f.type]);
  return ['## Exports', '', ...lines, '', 'Columns, in order (the same in the Excel and the PDF):', '', ...table(['Header', 'Key', 'Type'], rows)];
}

function countCardsSection(v: Obj, ctx: ShowContext): string[] {
  const c = v.countCards;
  if (c === undefined) return [];
  if (!isObj(c)) return ['## Count cards', '', shown(c, ctx)];
  const rows = items(c.cards).map((card) => [label(p(card, 'label'), ctx), shown(p(card, 'key'), ctx), str(p(card, 'tone')) ?? shown(p(card, 'tone'), ctx)]);
  const more = moreOf(c, ['call', 'cards'], ctx);
  return ['## Count cards', '', `From ${callText(c.call, ctx)}${more ? `; ${more}` : ''}`, '', ...table(['Label', 'Key', 'Tone'], rows)];
}

function footerLines(f: unknown, ctx: ShowContext): string[] {
  if (!isObj(f)) return [shown(f, ctx)];
  const rows = items(f.items).map((i) => [label(p(i, 'label'), ctx), str(p(i, 'currency')) ?? shown(p(i, 'currency'), ctx), shown(p(i, 'value'), ctx, 'value')]);
  const out = table(['Label', 'Currency', 'Value'], rows);
  if (f.note !== undefined) out.push('', `Note: ${label(f.note, ctx)}`);
  return out;
}

function tabsSection(v: Obj, ctx: ShowContext): string[] {
  const tabs = items(v.tabs);
  if (!tabs.length) return [];
  const out = ['## Tabs'];
  for (const t of tabs) {
    if (!isObj(t)) {
      out.push('', `- ${shown(t, ctx)}`);
      continue;
    }
    out.push('', `### ${label(t.label, ctx)} (${code(str(t.id) ?? '?')})`, '');
    out.push(`- Source: ${t.source !== undefined ? callText(p(t.source, 'call'), ctx) : "the screen's"}`);
    if (p(t.source, 'rows') !== undefined) out.push(`- Rows: ${shown(p(t.source, 'rows'), ctx, 'rows')}`);
    out.push(`- Row actions: ${yesNo(t.rowActions, 'yes', ctx)}`);
    for (const [k, x] of Object.entries(t)) if (!['id', 'label', 'source', 'footer', 'rowActions'].includes(k)) out.push(`- ${k}: ${shown(x, ctx, k)}`);
    if (t.footer !== undefined) out.push('', ...footerLines(t.footer, ctx));
  }
  return out;
}

function listBody(v: Obj, ctx: ShowContext): string[][] {
  return [
    sourceSection('## Data', v.source, ctx),
    columnsSection(v, v.exports !== undefined, ctx),
    filtersSection(v, ctx),
    tableSection(v, ctx),
    countCardsSection(v, ctx),
    tabsSection(v, ctx),
    v.footer !== undefined ? ['## Totals footer', '', ...footerLines(v.footer, ctx)] : [],
    createButtonSection(v, ctx),
    changeRequestsSection(v, ctx),
    rowActionsSection(v, ctx),
    exportsSection(v, ctx),
    otherProperties(v, [...SCREEN_COMMON, ...LIST_KNOWN], ctx),
  ];
}

// ---- forms ------------------------------------------------------------------------------------

function fieldDetails(f: Obj, ctx: ShowContext): string {
  const parts: string[] = [];
  for (const [k, x] of Object.entries(f)) {
    if (['key', 'label', 'kind', 'required'].includes(k)) continue;
    if (k === 'options' && Array.isArray(x)) parts.push(`options: ${optionsText(x, ctx)}`);
    else if (k === 'clears' && Array.isArray(x)) parts.push(`clears: ${x.map((i) => code(String(i))).join(', ')}`);
    else if (typeof x === 'number' || typeof x === 'boolean') parts.push(`${k}: ${String(x)}`);
    else parts.push(`${k}: ${shown(x, ctx, k)}`);
  }
  return parts.join('<br>');
}

function formBody(v: Obj, ctx: ShowContext & { schemaName(schema: unknown): string }): string[][] {
  const callPart = (name: string, extra: readonly [string, string][]): [string, string] | undefined => {
    const w = v[name];
    if (w === undefined) return undefined;
    if (!isObj(w)) return [name, shown(w, ctx)];
    const parts = [callText(w.call, ctx), ...extra.filter(([k]) => w[k] !== undefined).map(([k, l]) => `${l} ${shown(w[k], ctx, k)}`)];
    const more = moreOf(w, ['call', ...extra.map(([k]) => k)], ctx);
    if (more) parts.push(more);
    return [name === 'submit' ? 'Submit' : name === 'load' ? 'Load' : 'Options', parts.join('; ')];
  };
  const rows = [
    ['Mode', str(v.mode) ?? shown(v.mode, ctx)],
    ['Schema', ctx.schemaName(v.schema)],
    callPart('options', [['select', 'select']]),
    callPart('load', [
      ['request', 'request'],
      ['values', 'values'],
    ]),
    callPart('submit', [['request', 'request']]),
    ['Success message', message(p(v.messages, 'success'), ctx, 'success')],
    ['Failure message', message(p(v.messages, 'failure'), ctx, 'failure')],
    ['Back to', shown(v.back, ctx, 'back')],
    ['Defaults', shown(v.defaults, ctx, 'defaults')],
  ].filter((r): r is [string, string] => !!r);
  const fieldRows = items(v.fields).map((f) =>
    isObj(f) ? [code(str(f.key) ?? '?'), label(f.label, ctx, 'label'), str(f.kind) ?? shown(f.kind, ctx), yesNo(f.required, 'no', ctx), fieldDetails(f, ctx)] : [shown(f, ctx), '', '', '', ''],
  );
  const rules: string[] = ['## Rules'];
  if (v.schema !== undefined) {
    const docs = new Map(refinementsOf(v.schema).map((fn) => [`refine(${fn.name})`, fn]));
    rules.push('', `From ${ctx.schemaName(v.schema)}, the zod schema the form validates with, as imported.`, '');
    rules.push(
      ...table(
        ['Field', 'Rule', 'Message'],
        zodRules(v.schema).map((r) => {
          const doc = ctx.docs.find(docs.get(r.rule)?.name)?.doc;
          return [code(r.field), `${code(r.rule)}${doc ? ` — ${text(doc)}` : ''}`, r.message !== undefined ? code(r.message) : '—'];
        }),
      ),
    );
  } else rules.push('', 'No schema.');
  return [
    ['## Form', '', ...table(['Setting', 'Value'], rows)],
    ['## Fields', '', ...table(['Key', 'Label', 'Kind', 'Required', 'Details'], fieldRows)],
    rules,
    otherProperties(v, [...SCREEN_COMMON, ...FORM_KNOWN], ctx),
  ];
}

// ---- custom and unknown kinds -----------------------------------------------------------------

function customBody(v: Obj, ctx: ShowContext): string[][] {
  return [
    [
      '## Hand-written screen',
      '',
      ...table(
        ['Setting', 'Value'],
        [
          ['Component', shown(v.component, ctx)],
          ['Without the shell', yesNo(v.bare, 'no', ctx)],
        ],
      ),
    ],
    otherProperties(v, [...SCREEN_COMMON, ...CUSTOM_KNOWN], ctx),
  ];
}

export function renderScreenSpec(s: ScreenInfo, ctx: ShowContext & { schemaName(schema: unknown): string }): string {
  const v = s.value;
  const body = s.kind === 'list' ? listBody(v, ctx) : s.kind === 'form' ? formBody(v, ctx) : s.kind === 'custom' ? customBody(v, ctx) : [otherProperties(v, SCREEN_COMMON, ctx)];
  return document([header(s, ctx), ...body, s.registered === false ? [] : serverRulesSection(v, ctx.docs, (c) => ctx.contractName(c))]);
}
