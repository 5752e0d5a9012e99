/**
 * What exists only in source: the doc comment of a named function or constant and the file it is
 * defined in, found with ts-morph by name among the project's own files (screens/, src/). The values
 * themselves are imported; only their comments are read here.
 */
import { resolve } from 'node:path';
import { Node, Project, type SourceFile } from 'ts-morph';

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

  constructor(private readonly root: string = resolve('.')) {}

  private files(): SourceFile[] {
    if (!this.project) {
      this.project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false } });
      this.project.addSourceFilesAtPaths([`${this.root}/screens/**/*.ts`, `${this.root}/src/**/*.ts`, `!${this.root}/src/**/*.test.ts`, `!${this.root}/src/**/*.tsx`]);
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
      const here = { file: f.getFilePath().slice(this.root.length + 1), doc: docText(decl) };
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
}
