/**
 * Opens the project with ts-morph and reads, from source, every screen definition and every call
 * contract. The access rule of a served contract is taken from the imported contract (src/api/index.ts).
 */
import { resolve } from 'node:path';
import { Node, Project, SyntaxKind, type SourceFile } from 'ts-morph';
import { Evaluator, sourceText, str, unwrap, type Val, type Written } from './evaluate';
import { accessRules, type CallAccess } from '../src/domain/access';
import { findCall } from '../src/api/index';

export interface Sources {
  readonly root: string;
  readonly project: Project;
  readonly ev: Evaluator;
}

export interface OpenOptions {
  /** The project root (default: the current directory). */
  readonly root?: string;
  /** Extra files to read (project-relative), e.g. test fixtures. */
  readonly files?: readonly string[];
  /** In-memory contents replacing files (project-relative path → text); nothing is written. */
  readonly overrides?: Readonly<Record<string, string>>;
}

export function openSources(options: OpenOptions = {}): Sources {
  const root = resolve(options.root ?? '.');
  const project = new Project({ tsConfigFilePath: resolve(root, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([resolve(root, 'screens/**/*.ts'), resolve(root, 'src/api/**/*.ts'), '!' + resolve(root, '**/*.test.ts')]);
  for (const f of options.files ?? []) project.addSourceFileAtPath(resolve(root, f));
  for (const [f, text] of Object.entries(options.overrides ?? {})) project.createSourceFile(resolve(root, f), text, { overwrite: true });
  project.resolveSourceFileDependencies();
  return { root, project, ev: new Evaluator(root) };
}

export function sourceFilesUnder(src: Sources, folder: string): SourceFile[] {
  const prefix = resolve(src.root, folder) + '/';
  return src.project
    .getSourceFiles()
    .filter((f) => f.getFilePath().startsWith(prefix) && !f.isDeclarationFile() && !f.getFilePath().endsWith('.test.ts'))
    .sort((a, b) => (a.getFilePath() < b.getFilePath() ? -1 : a.getFilePath() > b.getFilePath() ? 1 : 0));
}

// ---- call contracts ---------------------------------------------------------------------------

export type AccessInfo =
  | { readonly kind: 'public' }
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'anyOf'; readonly permissions: readonly string[] }
  | { readonly kind: 'rule'; readonly name: string; readonly text: string }
  | { readonly kind: 'unknown'; readonly written: string };

/** The access of a contract as the server holds it (imported, not read from source). */
export function accessInfo(access: CallAccess): AccessInfo {
  if (access === 'public' || access === 'authenticated') return { kind: access };
  if ('rule' in access) return { kind: 'rule', name: access.rule, text: accessRules[access.rule].text };
  return { kind: 'anyOf', permissions: [...access.anyOf] };
}

export interface ContractInfo {
  /** The exported name, e.g. `userList`. */
  readonly name: string;
  readonly file: string;
  readonly path: string;
  readonly access: AccessInfo;
  readonly summary?: string;
}

export function accessOf(w: Written | undefined): AccessInfo {
  if (!w) return { kind: 'unknown', written: '(none)' };
  const v = w.value;
  if (v.kind === 'primitive' && v.value === 'public') return { kind: 'public' };
  if (v.kind === 'primitive' && v.value === 'authenticated') return { kind: 'authenticated' };
  if (v.kind === 'object') {
    const any = v.props.get('anyOf');
    if (any?.value.kind === 'array') {
      const permissions = any.value.items.map((i) => str(i.value));
      if (permissions.every((p): p is string => p !== undefined)) return { kind: 'anyOf', permissions };
    }
  }
  return { kind: 'unknown', written: sourceText(w.node) };
}

function isDefineCall(node: Node | undefined): boolean {
  if (!node) return false;
  const n = unwrap(node);
  return Node.isCallExpression(n) && /(^|\.)defineCall$/.test(n.getExpression().getText());
}

/** Every `defineCall({...})` in src/api (usually `export const x = defineCall(...)`), sorted by path. */
export function readContracts(src: Sources): ContractInfo[] {
  const out: ContractInfo[] = [];
  for (const file of sourceFilesUnder(src, 'src/api')) {
    for (const call of file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      if (!isDefineCall(call)) continue;
      let holder: Node = call;
      while (Node.isParenthesizedExpression(holder.getParentOrThrow()) || Node.isAsExpression(holder.getParentOrThrow()) || Node.isSatisfiesExpression(holder.getParentOrThrow())) holder = holder.getParentOrThrow();
      const parent = holder.getParentOrThrow();
      const named = Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) ? parent.getName() : undefined;
      const v = Node.isVariableDeclaration(parent) ? src.ev.valueOfDeclaration(parent) : src.ev.evaluate(call, { vars: new Map() });
      const path = v?.kind === 'object' ? str(v.props.get('path')?.value) : undefined;
      if (!v || v.kind !== 'object' || !path) continue;
      // a served contract's access is the imported one the server decides with; only a contract outside allCalls is read from source
      const live = findCall(path);
      const access = live && live.path === path ? accessInfo(live.access) : accessOf(v.props.get('access'));
      out.push({ name: named ?? path, file: src.ev.relativePath(file), path, access, summary: str(v.props.get('summary')?.value) });
    }
  }
  return out.sort((a, b) => compare(a.path.toLowerCase(), b.path.toLowerCase()) || compare(a.name, b.name));
}

/** The contract a definition refers to (`call: userList`): by its path, else what the object itself says. */
export function contractOf(w: Written | undefined, contracts: readonly ContractInfo[]): ContractInfo | undefined {
  if (!w || w.value.kind !== 'object') return undefined;
  const path = str(w.value.props.get('path')?.value);
  if (!path) return undefined;
  const written = unwrap(w.node);
  const name = Node.isIdentifier(written) ? written.getText() : Node.isPropertyAccessExpression(written) ? written.getName() : undefined;
  const known = contracts.filter((c) => c.path.toLowerCase() === path.toLowerCase());
  const exact = known.find((c) => c.name === name) ?? known[0];
  if (exact) return exact;
  return { name: name ?? sourceText(w.node), file: '', path, access: accessOf(w.value.props.get('access')), summary: str(w.value.props.get('summary')?.value) };
}

// ---- screens ----------------------------------------------------------------------------------

export interface ScreenInfo {
  readonly id: string;
  readonly kind: string;
  readonly value: Extract<Val, { kind: 'object' }>;
  /** Where it is defined (project-relative) and under which name. */
  readonly file: string;
  readonly name: string;
  /** In the registry (screens/index.ts); undefined when no registry was read. */
  readonly registered?: boolean;
}

/** A screen: an object with string `kind`, `id`, `route` and `title` (any kind, so new kinds are read too). */
export function isScreenValue(v: Val | undefined): v is Extract<Val, { kind: 'object' }> {
  return v?.kind === 'object' && ['kind', 'id', 'route', 'title'].every((k) => typeof str(v.props.get(k)?.value) === 'string');
}

function originOf(src: Sources, w: Written, fallbackName: string): { file: string; name: string } {
  const n = unwrap(w.node);
  if (Node.isIdentifier(n)) {
    const decl = src.ev.declarationOf(n);
    if (decl && Node.isVariableDeclaration(decl)) return { file: src.ev.relativePath(decl.getSourceFile()), name: decl.getName() };
  }
  const objectNode = w.value.kind === 'object' ? w.value.node : n;
  const holder = objectNode.getFirstAncestor((a) => Node.isVariableDeclaration(a));
  return { file: src.ev.relativePath(objectNode.getSourceFile()), name: holder && Node.isVariableDeclaration(holder) ? holder.getName() : fallbackName };
}

function screensIn(w: Written): Written[] {
  if (isScreenValue(w.value)) return [w];
  if (w.value.kind === 'array') return w.value.items.flatMap(screensIn);
  return [];
}

/**
 * The screens: first the registry's (`export const screens = [...]` in `registryFile`), in order, then
 * any other screen exported from `files` (marked not registered). Without a registry, every exported
 * screen of `files`.
 */
export function readScreens(src: Sources, files: readonly SourceFile[], registryFile?: SourceFile): ScreenInfo[] {
  const out: ScreenInfo[] = [];
  const seen = new Set<Val>();
  const add = (w: Written, registered: boolean | undefined, fallbackName: string) => {
    if (!isScreenValue(w.value) || seen.has(w.value)) return;
    seen.add(w.value);
    const { file, name } = originOf(src, w, fallbackName);
    out.push({ id: str(w.value.props.get('id')?.value)!, kind: str(w.value.props.get('kind')?.value)!, value: w.value, file, name, registered });
  };
  if (registryFile) {
    const decl = registryFile.getVariableDeclaration('screens');
    const v = decl ? src.ev.valueOfDeclaration(decl) : undefined;
    if (!decl || v?.kind !== 'array') {
      process.stderr.write(`codegen: cannot read the registry \`export const screens = [...]\` in ${src.ev.relativePath(registryFile)}; every screen is listed as registered\n`);
      return readScreens(src, files);
    }
    for (const item of v.items) {
      if (item.value.kind === 'unknown') process.stderr.write(`codegen: cannot read registry entry ${sourceText(item.node)} statically; it has no spec\n`);
      for (const w of screensIn(item)) add(w, true, 'screens');
    }
  }
  for (const file of files) {
    if (file === registryFile) continue;
    for (const stmt of file.getVariableStatements()) {
      if (!stmt.isExported()) continue;
      for (const decl of stmt.getDeclarations()) {
        const v = src.ev.valueOfDeclaration(decl);
        if (!v) continue;
        for (const w of screensIn({ value: v, node: decl.getNameNode() })) add(w, registryFile ? false : undefined, decl.getName());
      }
    }
  }
  return out;
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
