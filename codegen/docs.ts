/**
 * What exists only in source: the doc comment of a named function or constant and the file it is
 * defined in, found with ts-morph by name among the project's own files (screens/, src/). The values
 * themselves are imported; only their comments are read here.
 */
import { resolve } from 'node:path';
import { Node, Project, SyntaxKind, type SourceFile } from 'ts-morph';

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface Defined {
  /** Project-relative path, forward slashes. */
  readonly file: string;
  /** The doc comment's text, on one line; undefined when it has none. */
  readonly doc?: string;
}

function docText(node: Node): string | undefined {
  const holder = Node.isVariableDeclaration(node) ? (node.getVariableStatement() ?? node) : node;
  const docs = Node.isJSDocable(holder) ? holder.getJsDocs() : [];
  const last = docs[docs.length - 1];
  const text = last?.getDescription().replace(/\s+/g, ' ').trim();
  return text || undefined;
}

export class Docs {
  private project?: Project;
  private readonly cache = new Map<string, Defined | undefined>();

  /** `overrides`: a file read in place of another (project-relative path → path), reported under the first. */
  constructor(
    private readonly root: string = resolve('.'),
    private readonly overrides: Readonly<Record<string, string>> = {},
  ) {}

  private rel(f: SourceFile): string {
    const path = f.getFilePath().slice(this.root.length + 1);
    return Object.entries(this.overrides).find(([, to]) => to === path)?.[0] ?? path;
  }

  private files(): SourceFile[] {
    if (!this.project) {
      this.project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false } });
      this.project.addSourceFilesAtPaths([`${this.root}/screens/**/*.ts`, `${this.root}/src/**/*.ts`, `${this.root}/tests/fixtures/**/*.ts`, `!${this.root}/src/**/*.test.ts`]);
    }
    return this.project.getSourceFiles();
  }

  /** Where a top-level function or `const` of this name is defined (exported ones first), with its doc comment. */
  find(name: string | undefined): Defined | undefined {
    if (!name) return undefined;
    if (this.cache.has(name)) return this.cache.get(name);
    let found: Defined | undefined;
    let fallback: Defined | undefined;
    for (const f of this.files()) {
      const decl = f.getFunction(name) ?? f.getVariableDeclaration(name);
      if (!decl) continue;
      const here = { file: this.rel(f), doc: docText(decl) };
      const exported = Node.isFunctionDeclaration(decl) ? decl.isExported() : decl.getVariableStatement()?.isExported();
      if (exported) {
        found = here;
        break;
      }
      fallback ??= here;
    }
    this.cache.set(name, found ?? fallback);
    return found ?? fallback;
  }

  /**
   * Where the screen `id` is defined: the file and the `const` holding the object literal with
   * `id: '<id>'` (its nearest variable), among `files` (project-relative); undefined when it is made
   * by a factory from arguments.
   */
  screenOrigin(id: string, files: readonly string[]): { file: string; name: string } | undefined {
    const wanted = new Set(files.map((f) => this.overrides[f] ?? f));
    for (const f of this.files()) {
      if (!wanted.has(f.getFilePath().slice(this.root.length + 1))) continue;
      for (const prop of f.getDescendantsOfKind(SyntaxKind.PropertyAssignment)) {
        const init = prop.getInitializer();
        if (prop.getName() !== 'id' || !init || !Node.isStringLiteral(init) || init.getLiteralValue() !== id) continue;
        const holder = prop.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
        // `export const [a, b] = pair(...)`: the literal does not say which name is this screen; the export does
        if (holder && Node.isIdentifier(holder.getNameNode())) return { file: this.rel(f), name: holder.getName() };
      }
    }
    return undefined;
  }
}
