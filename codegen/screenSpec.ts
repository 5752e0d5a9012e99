/**
 * One human-readable Markdown spec per screen, read from the definition's source: route, menu,
 * permission; columns, filters, row actions (permission, guard name and doc comment), form fields and
 * their rules with exact messages, exports, page size and sort. Properties the generator does not know
 * are shown as written, so a new capability of the runtime appears in the spec before this file learns it.
 */
import { Node } from 'ts-morph';
import { exportFieldsOf } from '../src/console/exportFields';
import { exportTypeOf, type CellKind } from '../src/console/definitions';
import { exportFileName, FILE_STAMP_FORMAT, fileStamp } from '../src/console/exports/format';
import { fetchCountOptions } from '../src/domain/validation';
import { bool, items, num, sourceText, str, toPlain, unwrap, type Val, type Written } from './evaluate';
import { code, document, GENERATED_MARK, table, text } from './markdown';
import { accessOf, contractOf, type AccessInfo, type ContractInfo, type ScreenInfo, type Sources } from './read';
import { ZodReader } from './zodRules';

export interface SpecContext {
  readonly src: Sources;
  readonly contracts: readonly ContractInfo[];
  readonly zod: ZodReader;
}

type ObjectVal = Extract<Val, { kind: 'object' }>;

/** How the runtime shows each cell kind (src/console/views/cells.tsx, src/console/format.ts). */
const CELL_FORMATS: Record<string, string> = {
  text: "as text; '-' when empty",
  integer: "whole number, right-aligned; '-' when empty",
  amount: "2 decimals with thousands separators, right-aligned; '-' when empty",
  datetime: "yyyy-MM-dd HH:mm:ss, local time; '-' when empty or unreadable",
  status: 'coloured tag (Active green, anything else red)',
  approval: 'coloured tag (APPROVED green, PENDING yellow, anything else red)',
  rate: "4 decimals with thousands separators, right-aligned; '-' when empty",
  paymentStatus: "coloured tag (SUCCESS green, PENDING and HOLD yellow, REFUNDED blue, anything else red); '-' when empty",
  tags: 'one tag per item',
  image: 'image (a placeholder when missing)',
  yesNo: 'Yes or No',
  list: 'expandable list of items; exported as one text line per item',
};

const SCREEN_COMMON = ['kind', 'id', 'route', 'title', 'breadcrumb', 'access', 'menu'];
const LIST_KNOWN = ['source', 'rowKey', 'columns', 'pinnedColumns', 'filters', 'pageSize', 'defaultSort', 'emptyMessage', 'lockedWhen', 'clearButton', 'createButton', 'changeRequests', 'rowActions', 'exports', 'countCards', 'footer', 'tabs'];
const FORM_KNOWN = ['mode', 'schema', 'defaults', 'fields', 'options', 'load', 'submit', 'messages', 'back'];
const CUSTOM_KNOWN = ['component', 'bare'];

// ---- rendering values -------------------------------------------------------------------------

function isReference(node: Node): boolean {
  const n = unwrap(node);
  return Node.isIdentifier(n) || Node.isPropertyAccessExpression(n) || Node.isElementAccessExpression(n) || Node.isCallExpression(n);
}

/** A function: its name, file and doc comment when it has a name; else its source. */
function fnText(v: Extract<Val, { kind: 'function' }>, node: Node, withFile = true): string {
  if (v.name && isReference(node)) {
    const where = withFile && v.file ? ` (${code(v.file)})` : '';
    return `${code(v.name)}${where}${v.doc ? ` — ${text(v.doc)}` : ''}`;
  }
  return code(sourceText(node));
}

/** Any value, as written; a reference also shows what it resolves to when that is a plain value. */
export function asWritten(w: Written | undefined): string {
  if (!w) return '—';
  const v = w.value;
  if (v.kind === 'function') return fnText(v, w.node);
  const written = sourceText(w.node);
  if (!isReference(w.node)) return v.kind === 'primitive' && v.value !== undefined && v.value !== null ? code(String(v.value)) : code(written);
  if (v.kind === 'primitive' || v.kind === 'regex') return `${code(written)} = ${code(plainJson(v))}`;
  return code(written);
}

function plainJson(v: Val): string {
  if (v.kind === 'regex') return v.text;
  return JSON.stringify(toPlain(v)) ?? 'undefined';
}

/** A label or other text: the text itself when it is a string, else as written. */
function label(w: Written | undefined): string {
  const s = str(w?.value);
  if (s !== undefined) return text(s);
  return asWritten(w);
}

/** A key or other identifier-like string, in a code span. */
function keyText(w: Written | undefined): string {
  const s = str(w?.value);
  return s !== undefined && !isReference(w!.node) ? code(s) : asWritten(w);
}

/** An exact message: in a code span, so no character of it is read as Markdown. */
function message(w: Written | undefined): string {
  const s = str(w?.value);
  if (s !== undefined) return code(s);
  return asWritten(w);
}

function yesNo(w: Written | undefined, dflt: string): string {
  const b = bool(w?.value);
  if (b === undefined) return w ? asWritten(w) : dflt;
  return b ? 'yes' : 'no';
}

function accessText(a: AccessInfo): string {
  switch (a.kind) {
    case 'public':
      return 'public (no sign-in)';
    case 'authenticated':
      return 'any signed-in user';
    case 'anyOf':
      return `any of ${a.permissions.map(code).join(', ')}`;
    case 'rule':
      return `rule ${code(a.name)}: ${a.text}`;
    default:
      return code(a.written);
  }
}

function callText(w: Written | undefined, ctx: SpecContext): string {
  const c = contractOf(w, ctx.contracts);
  if (!c) return asWritten(w);
  return `${code(`POST /api/${c.path}`)} (${code(c.name)}) — ${accessText(c.access)}`;
}

function screenAccessText(w: Written | undefined): string {
  const v = w?.value;
  if (v?.kind === 'object' && v.props.has('rule')) {
    const rule = v.props.get('rule')!;
    const perms = items(v.props.get('permissions')?.value)
      .map((i) => str(i.value))
      .filter((p): p is string => !!p);
    return `rule ${asWritten(rule)}${perms.length ? `; permissions ${perms.map(code).join(', ')}` : ''}`;
  }
  const a = accessOf(w);
  return a.kind === 'anyOf' ? `${accessText(a)} (or ${code('super-permission')})` : accessText(a);
}

/** The other properties of an object, `name: value` joined, for the "More" cells. */
function moreOf(v: Val | undefined, known: readonly string[]): string {
  if (v?.kind !== 'object') return '';
  return [...v.props]
    .filter(([k]) => !known.includes(k))
    .map(([k, w]) => `${k}: ${asWritten(w)}`)
    .join('<br>');
}

function otherProperties(v: ObjectVal, known: readonly string[]): string[] {
  const rows = [...v.props].filter(([k]) => !known.includes(k)).map(([k, w]) => [code(k), asWritten(w)]);
  if (!rows.length) return [];
  return ['## Other properties', '', 'Properties the generator does not know, as written:', '', ...table(['Property', 'Value'], rows)];
}

function p(v: Val | undefined, name: string): Written | undefined {
  return v?.kind === 'object' ? v.props.get(name) : undefined;
}

// ---- the sections -----------------------------------------------------------------------------

function header(s: ScreenInfo): string[] {
  const v = s.value;
  const title = str(p(v, 'title')?.value) ?? s.id;
  const crumbs = items(p(v, 'breadcrumb')?.value)
    .map((c) => {
      const to = str(p(c.value, 'to')?.value);
      return `${label(p(c.value, 'label'))}${to ? ` (${code(to)})` : ''}`;
    })
    .join(' › ');
  const menu = p(v, 'menu');
  let menuText = 'none';
  if (menu?.value.kind === 'object') {
    const route = str(p(v, 'route')?.value) ?? '';
    const order = num(p(menu.value, 'order')?.value);
    const hidden = bool(p(menu.value, 'hiddenFromSuper')?.value);
    menuText = `${label(p(menu.value, 'section'))} › ${label(p(menu.value, 'label'))} (order ${order ?? asWritten(p(menu.value, 'order'))}; links to ${code(route.replace(/\/\$\w+$/, ''))})${hidden ? '; hidden from super users' : ''}`;
    const more = moreOf(menu.value, ['section', 'label', 'order', 'hiddenFromSuper']);
    if (more) menuText += `; ${more}`;
  } else if (menu) menuText = asWritten(menu);
  const rows = [
    ['Screen id', code(s.id)],
    ['Kind', s.kind],
    ['Route', str(p(v, 'route')?.value) !== undefined ? code(str(p(v, 'route')!.value)!) : asWritten(p(v, 'route'))],
    ['Title', label(p(v, 'title'))],
    ['Breadcrumb', crumbs || '—'],
    ['Access', screenAccessText(p(v, 'access'))],
    ['Menu', menuText],
    ['Defined in', `${code(s.file)} as ${code(s.name)}`],
  ];
  const out = [GENERATED_MARK, `# ${text(title)}`, '', ...table(['Property', 'Value'], rows)];
  if (s.registered === false) out.push('', `**Not in the registry** (${code('screens/index.ts')}): the console does not show this screen.`);
  return out;
}

function sourceSection(heading: string, source: Written | undefined, ctx: SpecContext): string[] {
  if (!source) return [];
  const sv = source.value;
  const lines = [`- Call: ${callText(p(sv, 'call'), ctx)}`];
  if (p(sv, 'request')) lines.push(`- Request from the filters: ${asWritten(p(sv, 'request'))}`);
  if (p(sv, 'rows')) lines.push(`- Rows: ${asWritten(p(sv, 'rows'))}`);
  if (p(sv, 'changeRequests')) lines.push(`- Change requests: ${asWritten(p(sv, 'changeRequests'))}`);
  for (const [k, w] of sv.kind === 'object' ? sv.props : []) if (!['call', 'request', 'rows', 'changeRequests'].includes(k)) lines.push(`- ${k}: ${asWritten(w)}`);
  if (sv.kind !== 'object') lines.splice(0, lines.length, `- ${asWritten(source)}`);
  return [heading, '', ...lines];
}

function columnsSection(v: ObjectVal, withExport: boolean): string[] {
  const cols = items(p(v, 'columns')?.value);
  const rows = cols.map((c) => {
    const cv = c.value;
    if (cv.kind !== 'object') return [asWritten(c), '', '', '', '', ...(withExport ? [''] : []), ''];
    const kind = str(p(cv, 'kind')?.value) ?? 'text';
    const kindCell = p(cv, 'kind') ? kind : 'text (default)';
    let fmt = CELL_FORMATS[kind] ?? '—';
    if (bool(p(cv, 'zeroAsDash')?.value)) fmt += "; '-' for zero";
    const panel = items(p(cv, 'panel')?.value);
    if (panel.length) fmt = `expandable panel of ${panel.map((f) => label(p(f.value, 'label'))).join(', ')}`;
    let exp = '';
    if (withExport) {
      if (bool(p(cv, 'export')?.value) === false) exp = 'no';
      else if (kind === 'image') exp = 'no (images are not exported)';
      else if (panel.length) exp = `as ${panel.length} columns: ${panel.map((f) => label(p(f.value, 'label'))).join(', ')}`;
      else exp = exportTypeOf(kind as CellKind);
    }
    const item = items(p(cv, 'itemFields')?.value);
    let more = moreOf(cv, ['key', 'header', 'kind', 'sortable', 'export', 'zeroAsDash', 'panel', 'itemFields']);
    if (item.length) more = [`item fields: ${item.map((f) => `${label(p(f.value, 'label'))} (${code(str(p(f.value, 'key')?.value) ?? '?')})`).join(', ')}`, more].filter(Boolean).join('<br>');
    return [label(p(cv, 'header')), keyText(p(cv, 'key')), kindCell, fmt, yesNo(p(cv, 'sortable'), 'yes'), ...(withExport ? [exp] : []), more];
  });
  return ['## Columns', '', ...table(['Header', 'Key', 'Kind', 'Format', 'Sortable', ...(withExport ? ['Export'] : []), 'More'], rows)];
}

/** An option's value: `''` for the empty string. */
function optionValue(o: Val): string {
  const v = toPlain(p(o, 'value')?.value);
  return v === '' ? code("''") : code(String(v));
}

function filterLimits(fv: Val): string {
  const kind = str(p(fv, 'kind')?.value);
  switch (kind) {
    case 'text': {
      const max = p(fv, 'maxLength');
      const n = num(max?.value);
      return n !== undefined ? `at most ${n} characters${isReference(max!.node) ? ` (${code(sourceText(max!.node))})` : ''}` : `maxLength ${asWritten(max)}`;
    }
    case 'fetchCount':
      return `rows to fetch: ${fetchCountOptions.map((o) => o.label).join(', ')}`;
    case 'select':
      return `options: ${items(p(fv, 'options')?.value)
        .map((o) => `${optionValue(o.value)} ${label(p(o.value, 'label'))}`)
        .join(', ') || asWritten(p(fv, 'options'))}`;
    case 'dataSelect':
      return `options from the reply: ${asWritten(p(fv, 'options'))}; first option ${label(p(fv, 'allLabel'))} (value '')`;
    case 'dateTimeRange':
      return 'From and To capped at now, To not before From; default today 00:00:00 to 23:59:59';
    case 'date':
      return 'capped at today; default today';
    default:
      return '—';
  }
}

function filtersSection(v: ObjectVal): string[] {
  const filters = items(p(v, 'filters')?.value);
  if (!filters.length) return ['## Filters', '', 'None: the list loads when the screen opens.'];
  const rows = filters.map((f) => {
    const fv = f.value;
    if (fv.kind !== 'object') return [asWritten(f), '', '', '', ''];
    const kind = str(p(fv, 'kind')?.value) ?? '?';
    if (kind === 'dateTimeRange') {
      const labels = `${p(fv, 'fromLabel') ? label(p(fv, 'fromLabel')) : 'From'} / ${p(fv, 'toLabel') ? label(p(fv, 'toLabel')) : 'To'}`;
      return [kind, `${code(str(p(fv, 'from')?.value) ?? '?')} / ${code(str(p(fv, 'to')?.value) ?? '?')}`, labels, filterLimits(fv), moreOf(fv, ['kind', 'from', 'to', 'fromLabel', 'toLabel'])];
    }
    const known = ['kind', 'key', 'label', 'maxLength', 'options', 'allLabel'];
    return [kind, code(str(p(fv, 'key')?.value) ?? '?'), p(fv, 'label') ? label(p(fv, 'label')) : kind === 'fetchCount' ? 'Fetch Count' : '—', filterLimits(fv), moreOf(fv, known)];
  });
  return ['## Filters', '', 'The list loads on Search.', '', ...table(['Kind', 'Key', 'Label', 'Limits', 'More'], rows)];
}

function tableSection(v: ObjectVal): string[] {
  const size = p(v, 'pageSize');
  const sort = p(v, 'defaultSort');
  let sortText = `${code('id')} ascending (runtime default)`;
  if (sort?.value.kind === 'object') {
    const desc = bool(p(sort.value, 'desc')?.value);
    sortText = `${code(str(p(sort.value, 'key')?.value) ?? '?')} ${desc === undefined ? asWritten(p(sort.value, 'desc')) : desc ? 'descending' : 'ascending'}`;
  } else if (sort) sortText = asWritten(sort);
  const rows = [
    ['Page size', size ? (num(size.value) !== undefined ? String(num(size.value)) : asWritten(size)) : '50 (runtime default)'],
    ['Default sort', sortText],
    ['Row key', p(v, 'rowKey') ? asWritten(p(v, 'rowKey')) : '—'],
    ['Pinned left (shown first)', p(v, 'pinnedColumns') ? asWritten(p(v, 'pinnedColumns')) : '—'],
    ['Empty message', p(v, 'emptyMessage') ? message(p(v, 'emptyMessage')) : `${code('No records found.')} (runtime default)`],
    ['Locked rows', p(v, 'lockedWhen') ? `a lock icon instead of the actions when ${asWritten(p(v, 'lockedWhen'))}` : '—'],
    ['Clear All Filters button', yesNo(p(v, 'clearButton'), 'no')],
  ];
  return ['## Table', '', ...table(['Setting', 'Value'], rows)];
}

function createButtonSection(v: ObjectVal): string[] {
  const b = p(v, 'createButton');
  if (!b) return [];
  const bv = b.value;
  if (bv.kind !== 'object') return ['## Create button', '', asWritten(b)];
  const more = moreOf(bv, ['label', 'permission', 'to']);
  return ['## Create button', '', `${label(p(bv, 'label'))} → ${code(str(p(bv, 'to')?.value) ?? '?')}, permission ${asWritten(p(bv, 'permission'))}${more ? `; ${more}` : ''}`];
}

function changeRequestsSection(v: ObjectVal, ctx: SpecContext): string[] {
  const c = p(v, 'changeRequests');
  if (!c) return [];
  const cv = c.value;
  if (cv.kind !== 'object') return ['## Change requests', '', asWritten(c)];
  const entity = str(p(cv, 'entity')?.value) ?? '?';
  const lines = [
    `- Shown to: ${asWritten(p(cv, 'permission'))}`,
    `- Approve or reject: ${callText(p(cv, 'approve'), ctx)}`,
    `- Entity: ${text(entity)} (toasts ${code(`${entity} approved successfully`)}, ${code(`${entity} rejected successfully`)}, ${code(`${entity} approved failed!`)}, ${code(`${entity} rejected failed!`)})`,
  ];
  const more = moreOf(cv, ['permission', 'approve', 'entity']);
  if (more) lines.push(`- ${more}`);
  return ['## Change requests', '', ...lines];
}

function runLines(run: Written | undefined, ctx: SpecContext): string[] {
  const rv = run?.value;
  if (!run || rv?.kind !== 'object') return [`- Runs: ${asWritten(run)}`];
  const kind = str(p(rv, 'kind')?.value);
  const lines: string[] = [];
  if (kind === 'navigate') lines.push(`- Runs: go to ${asWritten(p(rv, 'to'))}`);
  else if (kind === 'modal') lines.push(`- Runs: opens the modal ${asWritten(p(rv, 'modal'))}`);
  else if (kind === 'call') {
    lines.push(`- Runs: ${callText(p(rv, 'call'), ctx)}`);
    lines.push(`- Body: ${asWritten(p(rv, 'body'))}`);
    const confirm = p(rv, 'confirm');
    if (confirm?.value.kind === 'object') {
      const cv = confirm.value;
      lines.push(`- Confirm: ${label(p(cv, 'title'))}, message ${asWritten(p(cv, 'message'))}${bool(p(cv, 'danger')?.value) ? ', danger' : ''}`);
    } else if (confirm) lines.push(`- Confirm: ${asWritten(confirm)}`);
    const input = p(rv, 'input');
    if (input?.value.kind === 'object') {
      const iv = input.value;
      lines.push(`- Asks for: ${label(p(iv, 'label'))}, at most ${num(p(iv, 'maxLength')?.value) ?? asWritten(p(iv, 'maxLength'))} characters, required message ${message(p(iv, 'requiredMessage'))}`);
    } else if (input) lines.push(`- Asks for: ${asWritten(input)}`);
    lines.push(`- Success: ${p(rv, 'success')?.value.kind === 'primitive' ? message(p(rv, 'success')) : asWritten(p(rv, 'success'))}`);
    lines.push(`- Failure: ${message(p(rv, 'failure'))}`);
  } else lines.push(`- Runs: ${asWritten(p(rv, 'kind'))}`);
  for (const [k, w] of rv.props) if (!['kind', 'to', 'modal', 'call', 'body', 'confirm', 'input', 'success', 'failure'].includes(k)) lines.push(`- ${k}: ${asWritten(w)}`);
  return lines;
}

function rowActionsSection(v: ObjectVal, ctx: SpecContext): string[] {
  const actions = items(p(v, 'rowActions')?.value);
  if (!actions.length) return ['## Row actions', '', 'None.'];
  const out = ['## Row actions'];
  for (const a of actions) {
    const av = a.value;
    if (av.kind !== 'object') {
      out.push('', `- ${asWritten(a)}`);
      continue;
    }
    const id = str(p(av, 'id')?.value) ?? '?';
    const lbl = p(av, 'label');
    const heading = str(lbl?.value) !== undefined ? text(str(lbl!.value)!) : id;
    const lines = [`### ${heading} (${code(id)})`, ''];
    if (str(lbl?.value) === undefined) lines.push(`- Label: ${asWritten(lbl)}`);
    lines.push(`- Permission: ${p(av, 'permission') ? asWritten(p(av, 'permission')) : '**none**'}`);
    lines.push(`- Guard: ${p(av, 'when') ? asWritten(p(av, 'when')) : 'none (every row)'}`);
    lines.push(...runLines(p(av, 'run'), ctx));
    for (const [k, w] of av.props) if (!['id', 'label', 'permission', 'when', 'run'].includes(k)) lines.push(`- ${k}: ${asWritten(w)}`);
    out.push('', ...lines);
  }
  return out;
}

function exportsSection(v: ObjectVal): string[] {
  const e = p(v, 'exports');
  if (!e) return ['## Exports', '', 'None.'];
  const ev = e.value;
  if (ev.kind !== 'object') return ['## Exports', '', asWritten(e)];
  const fileBase = str(p(ev, 'fileBase')?.value);
  const stamp = new Date(2000, 0, 2, 3, 4, 5);
  const name = (ext: 'xlsx' | 'pdf') => (fileBase === undefined ? asWritten(p(ev, 'fileBase')) : code(exportFileName({ fileBase, title: '', username: '', now: stamp, timeZone: 'UTC' }, ext).replace(fileStamp({ now: stamp, timeZone: 'UTC' }), FILE_STAMP_FORMAT)));
  const lines = [`- Excel: ${name('xlsx')}`, `- PDF: ${name('pdf')}`, `- Title: ${label(p(ev, 'title'))}`];
  const more = moreOf(ev, ['fileBase', 'title']);
  if (more) lines.push(`- ${more}`);
  const plainColumns = (toPlain(p(v, 'columns')?.value) ?? []) as never[];
  const fields = Array.isArray(plainColumns) ? exportFieldsOf({ columns: plainColumns }) : [];
  const rows = fields.map((f) => [f.header === undefined ? '(not readable)' : text(String(f.header)), code(String(f.dataKey)), f.type]);
  return ['## Exports', '', ...lines, '', 'Columns, in order (the same in the Excel and the PDF):', '', ...table(['Header', 'Key', 'Type'], rows)];
}

function countCardsSection(v: ObjectVal, ctx: SpecContext): string[] {
  const c = p(v, 'countCards');
  if (!c) return [];
  const cv = c.value;
  if (cv.kind !== 'object') return ['## Count cards', '', asWritten(c)];
  const rows = items(p(cv, 'cards')?.value).map((card) => [label(p(card.value, 'label')), asWritten(p(card.value, 'key')), str(p(card.value, 'tone')?.value) ?? asWritten(p(card.value, 'tone'))]);
  const more = moreOf(cv, ['call', 'cards']);
  return ['## Count cards', '', `From ${callText(p(cv, 'call'), ctx)}${more ? `; ${more}` : ''}`, '', ...table(['Label', 'Key', 'Tone'], rows)];
}

function footerLines(f: Written | undefined): string[] {
  const fv = f?.value;
  if (!f || fv?.kind !== 'object') return [asWritten(f)];
  const rows = items(p(fv, 'items')?.value).map((i) => [label(p(i.value, 'label')), str(p(i.value, 'currency')?.value) ?? asWritten(p(i.value, 'currency')), asWritten(p(i.value, 'value'))]);
  const out = table(['Label', 'Currency', 'Value'], rows);
  if (p(fv, 'note')) out.push('', `Note: ${label(p(fv, 'note'))}`);
  return out;
}

function footerSection(v: ObjectVal): string[] {
  const f = p(v, 'footer');
  return f ? ['## Totals footer', '', ...footerLines(f)] : [];
}

function tabsSection(v: ObjectVal, ctx: SpecContext): string[] {
  const tabs = items(p(v, 'tabs')?.value);
  if (!tabs.length) return [];
  const out = ['## Tabs'];
  for (const t of tabs) {
    const tv = t.value;
    if (tv.kind !== 'object') {
      out.push('', `- ${asWritten(t)}`);
      continue;
    }
    out.push('', `### ${label(p(tv, 'label'))} (${code(str(p(tv, 'id')?.value) ?? '?')})`, '');
    out.push(`- Source: ${p(tv, 'source') ? callText(p(p(tv, 'source')!.value, 'call'), ctx) : "the screen's"}`);
    const src = p(tv, 'source');
    if (src && p(src.value, 'rows')) out.push(`- Rows: ${asWritten(p(src.value, 'rows'))}`);
    out.push(`- Row actions: ${yesNo(p(tv, 'rowActions'), 'yes')}`);
    for (const [k, w] of tv.props) if (!['id', 'label', 'source', 'footer', 'rowActions'].includes(k)) out.push(`- ${k}: ${asWritten(w)}`);
    if (p(tv, 'footer')) out.push('', ...footerLines(p(tv, 'footer')));
  }
  return out;
}

function listBody(s: ScreenInfo, ctx: SpecContext): string[][] {
  const v = s.value;
  return [
    sourceSection('## Data', p(v, 'source'), ctx),
    columnsSection(v, !!p(v, 'exports')),
    filtersSection(v),
    tableSection(v),
    countCardsSection(v, ctx),
    tabsSection(v, ctx),
    footerSection(v),
    createButtonSection(v),
    changeRequestsSection(v, ctx),
    rowActionsSection(v, ctx),
    exportsSection(v),
    otherProperties(v, [...SCREEN_COMMON, ...LIST_KNOWN]),
  ];
}

// ---- forms ------------------------------------------------------------------------------------

function fieldDetails(fv: ObjectVal): string {
  const parts: string[] = [];
  for (const [k, w] of fv.props) {
    if (['key', 'label', 'kind', 'required'].includes(k)) continue;
    if (k === 'options' && w.value.kind === 'array') {
      parts.push(`options: ${w.value.items.map((o) => `${optionValue(o.value)} ${label(p(o.value, 'label'))}`).join(', ')}`);
    } else if (k === 'clears' && w.value.kind === 'array') {
      parts.push(`clears: ${w.value.items.map((i) => code(str(i.value) ?? sourceText(i.node))).join(', ')}`);
    } else if (w.value.kind === 'primitive' && typeof w.value.value !== 'string' && !isReference(w.node)) {
      parts.push(`${k}: ${String(w.value.value)}`);
    } else if (w.value.kind === 'primitive' && typeof w.value.value === 'string' && !isReference(w.node)) {
      parts.push(`${k}: ${code(w.value.value)}`);
    } else parts.push(`${k}: ${asWritten(w)}`);
  }
  return parts.join('<br>');
}

/** The schema by name, with the file it is declared in. */
function schemaText(w: Written | undefined, ctx: SpecContext): string {
  if (!w) return '—';
  const n = unwrap(w.node);
  const decl = Node.isIdentifier(n) ? ctx.src.ev.declarationOf(n) : undefined;
  return decl ? `${code(n.getText())} (${code(ctx.src.ev.relativePath(decl.getSourceFile()))})` : code(sourceText(w.node));
}

function formBody(s: ScreenInfo, ctx: SpecContext): string[][] {
  const v = s.value;
  const messages = p(v, 'messages');
  const callPart = (name: string, extra: readonly [string, string][]): [string, string] | undefined => {
    const w = p(v, name);
    if (!w) return undefined;
    if (w.value.kind !== 'object') return [name, asWritten(w)];
    const parts = [callText(p(w.value, 'call'), ctx), ...extra.filter(([k]) => p(w.value, k)).map(([k, l]) => `${l} ${asWritten(p(w.value, k))}`)];
    const more = moreOf(w.value, ['call', ...extra.map(([k]) => k)]);
    if (more) parts.push(more);
    return [name === 'submit' ? 'Submit' : name === 'load' ? 'Load' : 'Options', parts.join('; ')];
  };
  const rows: [string, string][] = [
    ['Mode', str(p(v, 'mode')?.value) ?? asWritten(p(v, 'mode'))],
    ['Schema', schemaText(p(v, 'schema'), ctx)],
    callPart('options', [['select', 'select']]),
    callPart('load', [['request', 'request'], ['values', 'values']]),
    callPart('submit', [['request', 'request']]),
    ['Success message', message(p(messages?.value, 'success'))],
    ['Failure message', message(p(messages?.value, 'failure'))],
    ['Back to', asWritten(p(v, 'back'))],
    ['Defaults', asWritten(p(v, 'defaults'))],
  ].filter((r): r is [string, string] => !!r);
  const fields = items(p(v, 'fields')?.value);
  const fieldRows = fields.map((f) => {
    const fv = f.value;
    if (fv.kind !== 'object') return [asWritten(f), '', '', '', ''];
    return [code(str(p(fv, 'key')?.value) ?? '?'), label(p(fv, 'label')), str(p(fv, 'kind')?.value) ?? asWritten(p(fv, 'kind')), yesNo(p(fv, 'required'), 'no'), fieldDetails(fv)];
  });
  const schema = p(v, 'schema');
  const rules: string[] = ['## Rules'];
  if (schema) {
    const reading = ctx.zod.read(schema.node);
    if (reading.unread) rules.push('', `The schema ${asWritten(schema)} could not be read as an object; shown as written: ${code(reading.unread)}`);
    else {
      rules.push('', `From ${schemaText(schema, ctx)}, the zod schema the form validates with.`, '');
      rules.push(
        ...table(
          ['Field', 'Rule', 'Written as', 'Message'],
          reading.rules.map((r) => [
            code(r.field),
            code(r.rule) + (r.doc ? ` — ${text(r.doc)}` : ''),
            code(r.written),
            r.message !== undefined ? code(r.message) : r.messageWritten !== undefined ? code(r.messageWritten) + (r.messageDoc ? ` — ${text(r.messageDoc)}` : '') : '—',
          ]),
        ),
      );
    }
  } else rules.push('', 'No schema.');
  return [
    ['## Form', '', ...table(['Setting', 'Value'], rows)],
    ['## Fields', '', ...table(['Key', 'Label', 'Kind', 'Required', 'Details'], fieldRows)],
    rules,
    otherProperties(v, [...SCREEN_COMMON, ...FORM_KNOWN]),
  ];
}

// ---- custom and unknown kinds -----------------------------------------------------------------

function customBody(s: ScreenInfo): string[][] {
  const v = s.value;
  return [
    ['## Hand-written screen', '', ...table(['Setting', 'Value'], [['Component', asWritten(p(v, 'component'))], ['Without the shell', yesNo(p(v, 'bare'), 'no')]])],
    otherProperties(v, [...SCREEN_COMMON, ...CUSTOM_KNOWN]),
  ];
}

export function renderScreenSpec(s: ScreenInfo, ctx: SpecContext): string {
  const body = s.kind === 'list' ? listBody(s, ctx) : s.kind === 'form' ? formBody(s, ctx) : s.kind === 'custom' ? customBody(s) : [otherProperties(s.value, SCREEN_COMMON)];
  return document([header(s), ...body]);
}
