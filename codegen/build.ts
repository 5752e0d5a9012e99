/**
 * Everything `npm run codegen` writes, built in memory: the screen specs, the permission matrix, the
 * OpenAPI document and the folder's README. Pure apart from reading the sources, so the staleness test
 * can compare a fresh generation with the committed files.
 */
import { buildOpenApiDocument, openApiJson } from '../src/api/openapi';
import { allCalls } from '../src/api/index';
import { code, document, GENERATED_MARK } from './markdown';
import { renderPermissionMatrix } from './permissionMatrix';
import { renderSegregation } from './segregation';
import { compare, openSources, readContracts, readScreens, sourceFilesUnder, type OpenOptions, type ScreenInfo, type Sources } from './read';
import { renderScreenSpec, type SpecContext } from './screenSpec';
import { ZodReader } from './zodRules';
import { Docs } from './docs';
import { screens as registry } from '../screens/index';

export const GENERATED_DIR = 'generated';
export const REGISTRY_FILE = 'screens/index.ts';

/** The file name of a screen's spec: its id, with characters other than letters, digits, '.', '_' and '-' as '_'. */
export function specFileName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9._-]/g, '_')}.md`;
}

function contextOf(src: Sources): SpecContext {
  return { src, contracts: readContracts(src), zod: new ZodReader(src.ev), docs: new Docs(src.root), runtime: new Map(registry.map((s) => [s.id, s])) };
}

function specsOf(screens: readonly ScreenInfo[], ctx: SpecContext): Map<string, string> {
  const out = new Map<string, string>();
  const sorted = [...screens].sort((a, b) => compare(a.id, b.id) || compare(a.file, b.file) || compare(a.name, b.name));
  for (const s of sorted) {
    let name = specFileName(s.id);
    for (let n = 2; out.has(name); n++) name = specFileName(`${s.id}~${n}`);
    out.set(name, renderScreenSpec(s, ctx));
  }
  return out;
}

/** The registry's screens followed by screens defined in screens/ but not registered. */
export function readAllScreens(src: Sources): ScreenInfo[] {
  const registry = src.project.getSourceFile(`${src.root}/${REGISTRY_FILE}`);
  return readScreens(src, sourceFilesUnder(src, 'screens'), registry);
}

function readme(): string {
  return document([
    [GENERATED_MARK, '# generated/', '', 'Everything in this folder is written by `npm run codegen` (`codegen/generate.ts`). Do not edit it by hand: change the source and regenerate.'],
    [
      '## What is here',
      '',
      `- ${code('screens/<screen-id>.md')}: one spec per screen, read with ts-morph from its definition in ${code('screens/')} (route, menu, permission, columns, filters, row actions with their guards, form fields with their rules and messages, exports, page size and sort), and for each call the screen makes the server's rules behind it: access rule, the guards its handler runs, change request or four eyes (declared by each handler, ${code('src/server/callRules.ts')}).`,
      `- ${code('permission-matrix.md')}: each permission → the screens, actions and API calls it unlocks, and every call × every seeded role; the calls' cells are the server's own access decision (${code('mayCall')}, ${code('src/domain/access.ts')}) asked of the imported contract.`,
      `- ${code('segregation-of-duties.md')}: the roles as defined that can both make and approve in one area (${code('src/domain/segregation.ts')}).`,
      `- ${code('openapi.json')}: the wire contract as OpenAPI 3.1, built from the zod schemas of ${code('src/api/')} by ${code('src/api/openapi.ts')}; the server also serves it at ${code('GET /api/openapi.json')}. Each operation lists every status it can answer (the HTTP layer's own and its handler's, the contract's ${code('answers')}) with its body; ${code('tests/api/openapiResponses.test.ts')} replays API traffic and fails on any status or body the document does not list.`,
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
export function generateAll(options: OpenOptions = {}): Map<string, string> {
  const src = openSources(options);
  const ctx = contextOf(src);
  const screens = readAllScreens(src);
  const files = new Map<string, string>();
  files.set(`${GENERATED_DIR}/README.md`, readme());
  files.set(`${GENERATED_DIR}/openapi.json`, openApiJson(buildOpenApiDocument()));
  files.set(`${GENERATED_DIR}/permission-matrix.md`, renderPermissionMatrix(screens.filter((s) => s.registered !== false), allCalls, ctx.contracts));
  files.set(`${GENERATED_DIR}/segregation-of-duties.md`, renderSegregation());
  for (const [name, content] of specsOf(screens, ctx)) files.set(`${GENERATED_DIR}/screens/${name}`, content);
  return new Map([...files].sort(([a], [b]) => compare(a, b)));
}

/**
 * The specs of the screens exported from some files (e.g. a test fixture), by screen id, without the
 * registry. `overrides` replaces file contents in memory.
 */
export function generateScreenSpecs(options: OpenOptions & { readonly files: readonly string[] }): Map<string, string> {
  const src = openSources(options);
  const ctx = contextOf(src);
  const wanted = new Set(options.files.map((f) => `${src.root}/${f}`));
  const files = src.project.getSourceFiles().filter((f) => wanted.has(f.getFilePath()));
  const out = new Map<string, string>();
  for (const s of readScreens(src, files)) out.set(s.id, renderScreenSpec(s, ctx));
  return out;
}
