/**
 * Everything `npm run codegen` writes, built in memory from the imported definitions: the screen specs
 * (the registry, screens/index.ts, and any screen exported from screens/ but not registered), the
 * permission matrix, the OpenAPI document and the folder's README. ts-morph (codegen/docs.ts) only
 * finds doc comments and where each screen is defined.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOpenApiDocument, openApiJson } from '../src/api/openapi';
import { allCalls } from '../src/api/index';
import type { CallContract } from '../src/api/contract';
import { code, document, GENERATED_MARK } from './markdown';
import { renderPermissionMatrix } from './permissionMatrix';
import { renderSegregation } from './segregation';
import { renderScreenSpec, type ScreenInfo } from './screenSpec';
import { compare, Docs } from './docs';
import { isContract, isObj, type Obj, type ShowContext } from './values';

export const GENERATED_DIR = 'generated';
export const REGISTRY_FILE = 'screens/index.ts';

export interface GenerateOptions {
  /** The project root (default: the current directory). */
  readonly root?: string;
  /** Further modules to import (project-relative), e.g. test fixtures: their screens and contracts. */
  readonly files?: readonly string[];
  /** A module imported in place of another (project-relative path → path), as if the file were edited. */
  readonly overrides?: Readonly<Record<string, string>>;
  /**
   * The day the OpenAPI document is made for (its date fields' last year is that day's). Default: the
   * day the committed generated/openapi.json was made for, so that a check does not go stale at the
   * new year; `npm run codegen` passes today.
   */
  readonly openApiNow?: Date;
}

/** The day the committed OpenAPI document was made for (a day of its x-date-bounds.lastYear), if there is one. */
export function committedOpenApiNow(root = '.'): Date | undefined {
  const file = resolve(root, GENERATED_DIR, 'openapi.json');
  if (!existsSync(file)) return undefined;
  const lastYear = (JSON.parse(readFileSync(file, 'utf8')) as { 'x-date-bounds'?: { lastYear?: unknown } })['x-date-bounds']?.lastYear;
  return typeof lastYear === 'number' ? new Date(lastYear, 6, 1) : undefined;
}

/** The file name of a screen's spec: its id, with characters other than letters, digits, '.', '_' and '-' as '_'. */
export function specFileName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9._-]/g, '_')}.md`;
}

const isScreen = (v: unknown): v is Obj => isObj(v) && ['kind', 'id', 'route', 'title'].every((k) => typeof v[k] === 'string');

interface Module {
  readonly file: string;
  readonly exports: Obj;
}

async function importAll(root: string, files: readonly string[], overrides: Readonly<Record<string, string>>): Promise<Module[]> {
  return Promise.all(files.map(async (file) => ({ file, exports: (await import(pathToFileURL(resolve(root, overrides[file] ?? file)).href)) as Obj })));
}

const tsFiles = (root: string, dir: string) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()
    .map((f) => `${dir}/${f}`);

interface Ctx extends ShowContext {
  exportOf(v: unknown): { name: string; file: string } | undefined;
}

interface Loaded {
  readonly screens: ScreenInfo[];
  readonly ctx: Ctx;
}

/** Imports the registry, screens/ and src/api/ (and `files`), and names each screen's and contract's origin. */
async function load(options: GenerateOptions, withRegistry: boolean): Promise<Loaded> {
  const root = resolve(options.root ?? '.');
  const overrides = options.overrides ?? {};
  const extra = options.files ?? [];
  const screenFiles = withRegistry ? tsFiles(root, 'screens') : [];
  // an extra file's neighbours too, for the names of the contracts it imports
  const neighbours = extra.flatMap((f) => tsFiles(root, f.slice(0, f.lastIndexOf('/'))).filter((n) => !Object.values(overrides).includes(n)));
  const modules = await importAll(root, [...new Set([...screenFiles, ...tsFiles(root, 'src/api'), ...extra, ...neighbours])], overrides);
  const docs = new Docs(root, overrides);
  const exported = new Map<unknown, { name: string; file: string }>();
  for (const m of modules) for (const [name, v] of Object.entries(m.exports)) if (v && typeof v === 'object' && !exported.has(v)) exported.set(v, { name, file: m.file });
  const contractName = (c: unknown) => (isContract(c) ? exported.get(c)?.name : undefined);
  const ctx: Ctx = { docs, contractName: (c) => contractName(c) ?? contractName(allCalls.find((x) => x.path === c.path)), exportOf: (v) => exported.get(v) };

  const registry = withRegistry ? ((modules.find((m) => m.file === REGISTRY_FILE)?.exports.screens as readonly unknown[] | undefined) ?? []) : [];
  const out: ScreenInfo[] = [];
  const seen = new Set<unknown>();
  const add = (v: Obj, registered: boolean | undefined, m: Module | undefined, exportName: string) => {
    if (seen.has(v)) return;
    seen.add(v);
    const origin = docs.screenOrigin(String(v.id), [...screenFiles, ...extra]) ?? { file: m?.file ?? REGISTRY_FILE, name: exportName };
    out.push({ id: String(v.id), kind: String(v.kind), value: v, ...origin, registered });
  };
  // the screen's own export, else a list that holds it (the registry's, a file's)
  const owner = (v: unknown) => {
    for (const m of modules) for (const [name, x] of Object.entries(m.exports)) if (x === v) return { m, name };
    for (const m of modules) for (const [name, x] of Object.entries(m.exports)) if (Array.isArray(x) && x.includes(v)) return { m, name };
    return undefined;
  };
  for (const v of registry) if (isScreen(v)) add(v, true, owner(v)?.m, owner(v)?.name ?? 'screens');
  for (const m of modules) {
    if (!withRegistry && !extra.includes(m.file)) continue;
    if (m.file === REGISTRY_FILE || !(m.file.startsWith('screens/') || extra.includes(m.file))) continue;
    for (const [name, x] of Object.entries(m.exports)) for (const v of Array.isArray(x) ? x : [x]) if (isScreen(v)) add(v, withRegistry ? false : undefined, m, name);
  }
  return { screens: out, ctx };
}

function specsOf(screens: readonly ScreenInfo[], ctx: Ctx): Map<string, string> {
  const out = new Map<string, string>();
  const sorted = [...screens].sort((a, b) => compare(a.id, b.id) || compare(a.file, b.file) || compare(a.name, b.name));
  const schemaName = (schema: unknown) => {
    const found = ctx.exportOf(schema);
    return found ? `${code(found.name)} (${code(found.file)})` : 'an inline schema';
  };
  for (const s of sorted) {
    let name = specFileName(s.id);
    for (let n = 2; out.has(name); n++) name = specFileName(`${s.id}~${n}`);
    out.set(name, renderScreenSpec(s, { ...ctx, schemaName }));
  }
  return out;
}

function readme(): string {
  return document([
    [GENERATED_MARK, '# generated/', '', 'Everything in this folder is written by `npm run codegen` (`codegen/generate.ts`). Do not edit it by hand: change the source and regenerate.'],
    [
      '## What is here',
      '',
      `- ${code('screens/<screen-id>.md')}: one spec per screen, rendered from its imported definition in ${code('screens/')} (route, menu, permission, columns, filters, row actions with their guards, form fields with their rules and messages, exports, page size and sort), and for each call the screen makes the server's rules behind it: access rule, the guards its handler runs, change request or four eyes (declared by each handler, ${code('src/server/callRules.ts')}).`,
      `- ${code('permission-matrix.md')}: each permission → the screens, actions and API calls it unlocks, and every call × every seeded role; the calls' cells are the server's own access decision (${code('mayCall')}, ${code('src/domain/access.ts')}) asked of the imported contract.`,
      `- ${code('segregation-of-duties.md')}: the roles as defined that can both make and approve in one area (${code('src/domain/segregation.ts')}).`,
      `- ${code('openapi.json')}: the wire contract as OpenAPI 3.1, built from the zod schemas of ${code('src/api/')} by ${code('src/api/openapi.ts')}; the server also serves it to signed-in users at ${code('GET /api/openapi.json')}. Each operation lists every status it can answer (the HTTP layer's own and its handler's, the contract's ${code('answers')}) with its body; ${code('tests/api/openapiResponses.test.ts')} replays API traffic and fails on any status or body the document does not list.`,
    ],
    [
      '## Regenerating',
      '',
      '```sh',
      'npm run codegen            # rewrite the files',
      'npm run codegen -- --check # exit 1 when a file is stale',
      '```',
      '',
      'A unit test (`tests/unit/codegen.test.ts`) fails when a committed file differs from a fresh generation, so a pull request that changes a definition carries its spec diff. The output has no timestamps and a stable order, and tables are not padded, so a one-line change in a definition is a small change here.',
    ],
  ]);
}

/** Every generated file, by path relative to the project root. */
export async function generateAll(options: GenerateOptions = {}): Promise<Map<string, string>> {
  const { screens, ctx } = await load(options, true);
  const files = new Map<string, string>();
  files.set(`${GENERATED_DIR}/README.md`, readme());
  files.set(`${GENERATED_DIR}/openapi.json`, openApiJson(buildOpenApiDocument(allCalls, { now: options.openApiNow ?? committedOpenApiNow(options.root) })));
  files.set(
    `${GENERATED_DIR}/permission-matrix.md`,
    renderPermissionMatrix(
      screens.filter((s) => s.registered !== false),
      allCalls as readonly CallContract[],
      ctx,
    ),
  );
  files.set(`${GENERATED_DIR}/segregation-of-duties.md`, renderSegregation());
  for (const [name, content] of specsOf(screens, ctx)) files.set(`${GENERATED_DIR}/screens/${name}`, content);
  return new Map([...files].sort(([a], [b]) => compare(a, b)));
}

/** The specs of the screens exported from some files (e.g. a test fixture), by screen id, without the registry. */
export async function generateScreenSpecs(options: GenerateOptions & { readonly files: readonly string[] }): Promise<Map<string, string>> {
  const { screens, ctx } = await load(options, false);
  const specs = specsOf(screens, ctx);
  return new Map(screens.map((s) => [s.id, specs.get(specFileName(s.id))!]));
}
