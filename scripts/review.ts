/**
 * `npm run review -- --base <git revision> [--fail-on-widening] [--json <dir>]`: what a change does to
 * who may do what, to the screens and to the messages, for a reviewer, in Markdown, most important
 * first.
 *
 * It checks the base revision out in a temporary `git worktree` (with this checkout's node_modules
 * linked in), regenerates `generated/` there and for the working tree (into the temporary folder; the
 * working tree's own generated/ is not touched), imports both revisions' screen registry, contracts,
 * access rules and demo roles (scripts/reviewModel.ts) and compares the two models. It also compares
 * the two generated/openapi.json and the two revisions' migration files (scripts/reviewContract.ts).
 * `--json <dir>` also writes both models there. `--fail-on-widening` exits 2 when a permission got
 * wider.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareContracts, compareMigrations, type MigrationFile, type OpenApiDocument } from './reviewContract';
import { buildModel, loadSources, probesFor, type ActionModel, type Model } from './reviewModel';

export interface Finding {
  readonly section: Section;
  readonly text: string;
}

export type Section = 'widening' | 'narrowing' | 'routes' | 'calls' | 'screens' | 'messages';

const HEADINGS: Record<Section, string> = {
  widening: 'Permission widenings',
  narrowing: 'Permission narrowings',
  routes: 'Routes and menus',
  calls: 'API calls added or removed',
  screens: 'Columns, filters, fields and actions',
  messages: 'User-visible messages',
};

const c = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const q = (s: string) => (s.includes('\n') ? `\n\n  > ${s.replace(/\n/g, '\n  > ')}\n` : c(s));
const listed = (names: readonly string[], max = 6) => (names.length > max ? `${names.slice(0, max).join('; ')}; and ${names.length - max} more` : names.join('; '));
const sortedKeys = (...objs: readonly object[]) => [...new Set(objs.flatMap((o) => Object.keys(o)))].sort();

/** Who got in and who got out, between two lists of probe names. */
function gained(before: readonly string[], after: readonly string[]) {
  return { more: after.filter((n) => !before.includes(n)), fewer: before.filter((n) => !after.includes(n)) };
}

function accessFindings(out: Finding[], what: string, before: { allowed: readonly string[]; text: string }, after: { allowed: readonly string[]; text: string }): void {
  const { more, fewer } = gained(before.allowed, after.allowed);
  const change = before.text === after.text ? c(after.text) : `${c(before.text)} → ${c(after.text)}`;
  if (more.length) out.push({ section: 'widening', text: `${what}: ${change}; now also allowed: ${listed(more)}` });
  if (fewer.length) out.push({ section: 'narrowing', text: `${what}: ${change}; no longer allowed: ${listed(fewer)}` });
  if (!more.length && !fewer.length && before.text !== after.text) out.push({ section: 'screens', text: `${what}: access written differently, same decisions: ${change}` });
}

function propsFindings(out: Finding[], what: string, before: Record<string, Record<string, string>>, after: Record<string, Record<string, string>>): void {
  for (const k of sortedKeys(before, after)) {
    const b = before[k];
    const a = after[k];
    if (!b)
      out.push({
        section: 'screens',
        text: `${what} ${c(k)} added: ${Object.entries(a!)
          .map(([p, v]) => `${p} ${c(v)}`)
          .join(', ')}`,
      });
    else if (!a)
      out.push({
        section: 'screens',
        text: `${what} ${c(k)} removed (was ${Object.entries(b)
          .map(([p, v]) => `${p} ${c(v)}`)
          .join(', ')})`,
      });
    else {
      const changes = sortedKeys(b, a)
        .filter((p) => b[p] !== a[p])
        .map((p) => `${p} ${b[p] === undefined ? 'added' : c(b[p])} → ${a[p] === undefined ? 'removed' : c(a[p])}`);
      if (changes.length) out.push({ section: 'screens', text: `${what} ${c(k)} changed: ${changes.join(', ')}` });
    }
  }
}

function actionFindings(out: Finding[], screen: string, before: Record<string, ActionModel>, after: Record<string, ActionModel>): void {
  for (const k of sortedKeys(before, after)) {
    const b = before[k];
    const a = after[k];
    const what = `Screen ${c(screen)} action ${c(k)}`;
    if (!b) {
      out.push({ section: 'screens', text: `${what} added: “${a!.label}”, permission ${c(a!.permission)}, guard ${a!.guard ? c(a!.guard) : '**none**'}, runs ${c(a!.runs)}` });
      continue;
    }
    if (!a) {
      out.push({ section: 'screens', text: `${what} removed (was “${b.label}”, runs ${c(b.runs)})` });
      continue;
    }
    accessFindings(out, `${what} (who sees it)`, { allowed: b.allowed, text: b.permission }, { allowed: a.allowed, text: a.permission });
    if (b.guard && !a.guard) out.push({ section: 'widening', text: `${what}: guard ${c(b.guard)} removed; the action now shows on every row` });
    else if (!b.guard && a.guard) out.push({ section: 'narrowing', text: `${what}: guard ${c(a.guard)} added` });
    else if (b.guard !== a.guard) out.push({ section: 'screens', text: `${what}: guard ${c(b.guard!)} → ${c(a.guard!)} (a different predicate; check it is not looser)` });
    const changes = (['label', 'runs'] as const).filter((p) => b[p] !== a[p]).map((p) => `${p} ${c(b[p])} → ${c(a[p])}`);
    if (changes.length) out.push({ section: 'screens', text: `${what} changed: ${changes.join(', ')}` });
  }
}

/** Everything that differs between two models, in no particular order within a section. */
export function compareModels(base: Model, head: Model): Finding[] {
  const out: Finding[] = [];
  // calls
  for (const path of sortedKeys(base.calls, head.calls)) {
    const b = base.calls[path];
    const a = head.calls[path];
    if (!b) {
      out.push({ section: 'calls', text: `Call ${c(`POST /api/${path}`)} added: ${c(a!.access)}${a!.guards.length ? `; guards ${a!.guards.map(c).join(', ')}` : ''}` });
      continue;
    }
    if (!a) {
      out.push({ section: 'calls', text: `Call ${c(`POST /api/${path}`)} removed (was ${c(b.access)})` });
      continue;
    }
    accessFindings(out, `Call ${c(`POST /api/${path}`)}`, { allowed: b.allowed, text: b.access }, { allowed: a.allowed, text: a.access });
    for (const g of b.guards.filter((x) => !a.guards.includes(x))) out.push({ section: 'widening', text: `Call ${c(`POST /api/${path}`)}: server guard ${c(g)} removed` });
    for (const g of a.guards.filter((x) => !b.guards.includes(x))) out.push({ section: 'narrowing', text: `Call ${c(`POST /api/${path}`)}: server guard ${c(g)} added` });
    if (b.changeRequest && !a.changeRequest)
      out.push({ section: 'widening', text: `Call ${c(`POST /api/${path}`)} no longer goes through a change request (was ${c(b.changeRequest)}): it acts at once` });
    else if (b.changeRequest !== a.changeRequest)
      out.push({
        section: a.changeRequest && !b.changeRequest ? 'narrowing' : 'screens',
        text: `Call ${c(`POST /api/${path}`)} change request: ${b.changeRequest ? c(b.changeRequest) : 'none'} → ${a.changeRequest ? c(a.changeRequest) : 'none'}`,
      });
  }
  // roles and accounts
  for (const role of sortedKeys(base.roles, head.roles)) {
    const b = base.roles[role] ?? [];
    const a = head.roles[role] ?? [];
    const { more, fewer } = gained(b, a);
    if (!base.roles[role]) out.push({ section: 'widening', text: `Role ${c(role)} added with ${a.length ? a.map(c).join(', ') : 'no permission'}` });
    else if (!head.roles[role]) out.push({ section: 'narrowing', text: `Role ${c(role)} removed (had ${b.map(c).join(', ')})` });
    else {
      if (more.length) out.push({ section: 'widening', text: `Role ${c(role)} gains ${more.map(c).join(', ')}` });
      if (fewer.length) out.push({ section: 'narrowing', text: `Role ${c(role)} loses ${fewer.map(c).join(', ')}` });
    }
  }
  for (const user of sortedKeys(base.accounts, head.accounts)) {
    const b = base.accounts[user];
    const a = head.accounts[user];
    if (!b) out.push({ section: 'widening', text: `Seeded account ${c(user)} added (role ${c(a!.role)}${a!.enabled ? '' : ', disabled'})` });
    else if (!a) out.push({ section: 'narrowing', text: `Seeded account ${c(user)} removed` });
    else {
      if (b.role !== a.role) {
        const { more, fewer } = gained(b.permissions, a.permissions);
        out.push({
          section: more.length ? 'widening' : 'narrowing',
          text: `Seeded account ${c(user)}: role ${c(b.role)} → ${c(a.role)}${more.length ? `; gains ${more.map(c).join(', ')}` : ''}${fewer.length ? `; loses ${fewer.map(c).join(', ')}` : ''}`,
        });
      }
      if (b.enabled !== a.enabled) out.push({ section: a.enabled ? 'widening' : 'narrowing', text: `Seeded account ${c(user)} ${a.enabled ? 'enabled' : 'disabled'}` });
    }
  }
  // screens
  for (const id of sortedKeys(base.screens, head.screens)) {
    const b = base.screens[id];
    const a = head.screens[id];
    if (!b) {
      out.push({ section: 'routes', text: `Screen ${c(id)} added at ${c(a!.route)} (${a!.kind}, ${c(a!.access)})${a!.menu ? `, menu ${c(a!.menu)}` : ''}` });
      continue;
    }
    if (!a) {
      out.push({ section: 'routes', text: `Screen ${c(id)} removed (was ${c(b.route)}${b.menu ? `, menu ${c(b.menu)}` : ''})` });
      continue;
    }
    if (b.route !== a.route) out.push({ section: 'routes', text: `Screen ${c(id)} route ${c(b.route)} → ${c(a.route)}` });
    if (b.menu !== a.menu) out.push({ section: 'routes', text: `Screen ${c(id)} menu ${b.menu ? c(b.menu) : 'none'} → ${a.menu ? c(a.menu) : 'none'}` });
    accessFindings(out, `Screen ${c(id)} (who may open it)`, { allowed: b.allowed, text: b.access }, { allowed: a.allowed, text: a.access });
    if (b.settings.lockedWhen && !a.settings.lockedWhen)
      out.push({ section: 'widening', text: `Screen ${c(id)}: locked-row guard ${c(b.settings.lockedWhen)} removed; locked rows show their actions` });
    propsFindings(out, `Screen ${c(id)} column`, b.columns, a.columns);
    propsFindings(out, `Screen ${c(id)} filter`, b.filters, a.filters);
    propsFindings(out, `Screen ${c(id)} field`, b.fields, a.fields);
    actionFindings(out, id, b.actions, a.actions);
    const settings = sortedKeys(b.settings, a.settings).filter((k) => b.settings[k] !== a.settings[k] && k !== 'lockedWhen');
    if (settings.length)
      out.push({
        section: 'screens',
        text: `Screen ${c(id)} settings: ${settings.map((k) => `${k} ${b.settings[k] === undefined ? 'added' : c(b.settings[k])} → ${a.settings[k] === undefined ? 'removed' : c(a.settings[k])}`).join('; ')}`,
      });
  }
  // messages
  for (const where of sortedKeys(base.messages, head.messages)) {
    const b = base.messages[where];
    const a = head.messages[where];
    if (b === a) continue;
    if (b === undefined) out.push({ section: 'messages', text: `${where}: new ${q(a!)}` });
    else if (a === undefined) out.push({ section: 'messages', text: `${where}: removed (was ${q(b)})` });
    else out.push({ section: 'messages', text: `${where}: ${q(b)} → ${q(a)}` });
  }
  return out;
}

/** What the contract and migration comparisons found (scripts/reviewContract.ts), as their lines. */
export interface ContractReview {
  readonly contract: readonly string[];
  readonly migrations: readonly string[];
}

export function renderReview(findings: readonly Finding[], header: { base: string; head: string; generated: readonly string[] }, schema: ContractReview = { contract: [], migrations: [] }): string {
  const count = (s: Section) => findings.filter((f) => f.section === s).length;
  const operations = schema.contract.filter((l) => !l.startsWith(' ')).length;
  const frozen = schema.migrations.filter((l) => l.startsWith('!!'));
  const lines = [
    `# Review: ${header.base} → ${header.head}`,
    '',
    `**${count('widening')} permission widening(s)**, ${count('narrowing')} narrowing(s), ${count('routes') + count('calls')} route, menu or call change(s), ${count('screens')} screen change(s), ${count('messages')} message change(s), ${operations} contract change(s), ${schema.migrations.filter((l) => l.startsWith('+')).length} new migration(s).`,
  ];
  if (frozen.length) lines.push('', `**Frozen migrations touched (${frozen.length}): the change cannot ship as it is.**`, '', ...frozen.map((l) => `- ${l}`));
  for (const s of Object.keys(HEADINGS) as Section[]) {
    const mine = findings.filter((f) => f.section === s);
    if (!mine.length) continue;
    lines.push('', `## ${HEADINGS[s]} (${mine.length})`, '', ...mine.map((f) => `- ${f.text}`));
  }
  if (schema.contract.length) lines.push('', `## Contract: generated/openapi.json (${operations})`, '', '```diff', ...schema.contract, '```');
  if (schema.migrations.length) lines.push('', `## Migrations (${schema.migrations.length})`, '', '```diff', ...schema.migrations, '```');
  lines.push('', `## Generated files that differ (${header.generated.length})`, '', ...(header.generated.length ? header.generated.map((g) => `- ${g}`) : ['None.']));
  return lines.join('\n') + '\n';
}

// ---- the command ------------------------------------------------------------------------------

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

/** `added: x`, `removed: x`, `changed: x` between two generated/ folders. */
function generatedDiff(before: string, after: string): string[] {
  const rel = (root: string) => new Map(filesUnder(root).map((f) => [relative(root, f), f]));
  const b = rel(before);
  const a = rel(after);
  return [...new Set([...b.keys(), ...a.keys()])].sort().flatMap((f) => {
    if (!b.has(f)) return [`added: generated/${f}`];
    if (!a.has(f)) return [`removed: generated/${f}`];
    return readFileSync(b.get(f)!, 'utf8') === readFileSync(a.get(f)!, 'utf8') ? [] : [`changed: generated/${f}`];
  });
}

function readContract(generated: string): OpenApiDocument | undefined {
  const file = join(generated, 'openapi.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  } catch {
    return undefined;
  }
}

const MIGRATIONS = join('src', 'server', 'db', 'migrations', 'sql');

function migrationFiles(root: string): MigrationFile[] {
  const dir = join(root, MIGRATIONS);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((file) => ({ file, sql: readFileSync(join(dir, file), 'utf8') }));
}

/** The names the working tree's migration registry gives (none when it does not load, e.g. a listed file is missing). */
async function migrationNames(root: string): Promise<Record<number, string>> {
  try {
    const mod = (await import(pathToFileURL(join(root, 'src', 'server', 'db', 'migrations.ts')).href)) as { migrations?: readonly { id: number; name: string }[] };
    return Object.fromEntries((mod.migrations ?? []).map((m) => [m.id, m.name]));
  } catch {
    return {};
  }
}

/** The contract lines, or one line saying which revision has no generated/openapi.json. */
function contractLines(baseGenerated: string, headGenerated: string): string[] {
  const [b, a] = [readContract(baseGenerated), readContract(headGenerated)];
  if (!b || !a) return [`! generated/openapi.json could not be read in ${!b ? 'the base' : 'the working tree'}; the contract is not compared`];
  return compareContracts(b, a);
}

function codegen(root: string, outDir: string | undefined): void {
  const tsx = join(root, 'node_modules', '.bin', 'tsx');
  const args = ['codegen/generate.ts', ...(outDir ? ['--out', outDir] : [])];
  try {
    execFileSync(tsx, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    process.stderr.write(`review: codegen failed in ${root}: ${String((e as { stderr?: unknown }).stderr ?? e)}\n`);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const at = argv.indexOf('--base');
  const base = at >= 0 ? argv[at + 1] : undefined;
  if (!base) {
    process.stderr.write('usage: npm run review -- --base <git revision> [--fail-on-widening] [--json <dir>]\n');
    return 64;
  }
  const jsonAt = argv.indexOf('--json');
  const root = git(process.cwd(), 'rev-parse', '--show-toplevel');
  let sha: string;
  try {
    sha = git(root, 'rev-parse', '--verify', `${base}^{commit}`);
  } catch {
    process.stderr.write(`review: ${base} is not a revision of this repository\n`);
    return 64;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'review-'));
  const baseRoot = join(tmp, 'base');
  try {
    git(root, 'worktree', 'add', '--detach', baseRoot, sha);
    if (!existsSync(join(baseRoot, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(baseRoot, 'node_modules'), 'dir');
    codegen(baseRoot, undefined);
    const headGenerated = join(tmp, 'head-generated');
    codegen(root, headGenerated);
    const [baseSrc, headSrc] = [await loadSources(baseRoot), await loadSources(root)];
    const probes = probesFor(baseSrc, headSrc);
    const models = { base: buildModel(baseSrc, probes), head: buildModel(headSrc, probes) };
    if (jsonAt >= 0 && argv[jsonAt + 1]) {
      const dir = resolve(argv[jsonAt + 1]!);
      mkdirSync(dir, { recursive: true });
      for (const [k, m] of Object.entries(models)) writeFileSync(join(dir, `${k}.json`), JSON.stringify(m, null, 2) + '\n');
    }
    const findings = compareModels(models.base, models.head);
    const dirty = git(root, 'status', '--porcelain').length > 0;
    const head = `the working tree (${git(root, 'rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes' : ''})`;
    const schema = {
      contract: contractLines(join(baseRoot, 'generated'), join(headGenerated, 'generated')),
      migrations: compareMigrations(migrationFiles(baseRoot), migrationFiles(root), await migrationNames(root)),
    };
    process.stdout.write(renderReview(findings, { base: `${base} (${sha.slice(0, 7)})`, head, generated: generatedDiff(join(baseRoot, 'generated'), join(headGenerated, 'generated')) }, schema));
    for (const l of schema.migrations.filter((x) => x.startsWith('!!'))) process.stderr.write(`review: ${l.slice(3)}\n`);
    const widenings = findings.filter((f) => f.section === 'widening').length;
    if (argv.includes('--fail-on-widening') && widenings > 0) {
      process.stderr.write(`review: ${widenings} permission widening(s) found\n`);
      return 2;
    }
    return 0;
  } finally {
    try {
      git(root, 'worktree', 'remove', '--force', baseRoot);
    } catch {
      /* the folder is removed below; `git worktree prune` forgets it */
    }
    rmSync(tmp, { recursive: true, force: true });
    git(root, 'worktree', 'prune');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname ?? '', 'review.ts')) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      process.stderr.write(`review: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
