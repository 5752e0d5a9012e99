/**
 * The dependency arrows run one way. The headless layers (src/domain, src/api,
 * src/definitions, screens/) and the server import nothing from the console runtime (src/console) or
 * the custom screens (src/custom), and nothing from React; each layer imports only the layers below it.
 * The console runtime imports nothing from src/custom (src/main.tsx passes the custom parts in).
 * Walks every import (static, `export ... from`, type-only and dynamic `import()`) of every file of
 * those layers with ts-morph and names each offending arrow.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Node, Project, SyntaxKind, type SourceFile } from 'ts-morph';

type Layer = 'src/domain' | 'src/api' | 'src/definitions' | 'screens' | 'src/server' | 'src/console' | 'src/custom';

/** The layers each guarded layer may import (its own included). Anything else, React included, is an error. */
const allowed: Partial<Record<Layer, readonly Layer[]>> = {
  'src/domain': ['src/domain', 'src/api'],
  'src/api': ['src/api', 'src/domain'],
  'src/definitions': ['src/definitions', 'src/api', 'src/domain'],
  screens: ['screens', 'src/definitions', 'src/api', 'src/domain'],
  'src/server': ['src/server', 'screens', 'src/definitions', 'src/api', 'src/domain'],
  // the runtime gets the hand-written screens and modals from the entry (src/main.tsx), never by import
  'src/console': ['src/console', 'screens', 'src/definitions', 'src/api', 'src/domain'],
};
/** The layers that may use React. */
const withReact: readonly Layer[] = ['src/console', 'src/custom'];
const layers = ['src/domain', 'src/api', 'src/definitions', 'screens', 'src/server', 'src/console', 'src/custom'] as const satisfies readonly Layer[];
const reactPackage = /^(react|react-dom|scheduler)(\/|$)|^@tanstack\/react-|^@testing-library\/react/;

function layerOf(file: string): Layer | undefined {
  return layers.find((l) => file === l || file.startsWith(`${l}/`));
}

/** A module specifier as a repository-relative path without extension (tsconfig's `@/` and `@screens/` aliases), or undefined for a package. */
function resolveSpecifier(fromFile: string, spec: string): string | undefined {
  if (spec.startsWith('@/')) return path.posix.join('src', spec.slice(2));
  if (spec.startsWith('@screens/')) return path.posix.join('screens', spec.slice('@screens/'.length));
  if (spec.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  return undefined;
}

function specifiersOf(sf: SourceFile): { spec: string; line: number }[] {
  const found: { spec: string; line: number }[] = [];
  for (const d of sf.getImportDeclarations()) found.push({ spec: d.getModuleSpecifierValue(), line: d.getStartLineNumber() });
  for (const d of sf.getExportDeclarations()) {
    const spec = d.getModuleSpecifierValue();
    if (spec !== undefined) found.push({ spec, line: d.getStartLineNumber() });
  }
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const [arg] = call.getArguments();
    if (call.getExpression().getKind() === SyntaxKind.ImportKeyword && arg && Node.isStringLiteral(arg)) found.push({ spec: arg.getLiteralValue(), line: call.getStartLineNumber() });
  }
  return found;
}

/** Every import of a guarded layer's file that runs back up, as `file:line imports 'spec' (layer)`. */
function wrongArrows(project: Project, root: string): string[] {
  const problems: string[] = [];
  for (const sf of project.getSourceFiles()) {
    const file = path.relative(root, sf.getFilePath()).split(path.sep).join('/');
    const from = layerOf(file);
    const mayImport = from && allowed[from];
    if (!mayImport) continue;
    for (const { spec, line } of specifiersOf(sf)) {
      const target = resolveSpecifier(file, spec);
      if (target === undefined) {
        if (reactPackage.test(spec) && !withReact.includes(from)) problems.push(`${file}:${line} imports '${spec}' (React: ${from} is headless)`);
        continue;
      }
      const to = layerOf(target);
      if (!to || !mayImport.includes(to)) problems.push(`${file}:${line} imports '${spec}' (${to ?? target}: ${from} may import only ${mayImport.join(', ')})`);
    }
  }
  return problems;
}

function projectOf(files: Record<string, string>, root: string): Project {
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  for (const [name, text] of Object.entries(files)) project.createSourceFile(path.posix.join(root, name), text);
  return project;
}

describe('the import graph', () => {
  const root = process.cwd();

  it('has no arrow from the headless layers or the server back up to the console, the custom screens or React, nor from the console to the custom screens', () => {
    const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false } });
    for (const layer of Object.keys(allowed)) project.addSourceFilesAtPaths([`${layer}/**/*.ts`, `${layer}/**/*.tsx`]);
    // the walk saw the layers (else the check would pass vacuously)
    for (const layer of Object.keys(allowed)) {
      expect(existsSync(layer), layer).toBe(true);
      expect(
        project.getSourceFiles().some((sf) => path.relative(root, sf.getFilePath()).split(path.sep).join('/').startsWith(`${layer}/`)),
        layer,
      ).toBe(true);
    }
    expect(wrongArrows(project, root)).toEqual([]);
  });

  it('names each arrow that runs back up (relative, alias, re-export, type-only, dynamic and React)', () => {
    const fake = '/repo';
    const project = projectOf(
      {
        'screens/a.ts': "import { x } from '../src/console/views/ListView';\nimport { y } from '../src/definitions/definitions';",
        'src/server/b.ts': "export { z } from '@/custom/Login';\nimport type { T } from '../../screens';",
        'src/definitions/c.ts': "import type { S } from '../../screens/index';\nconst m = () => import('react');",
        'src/domain/d.ts': "import { useState } from 'react';\nimport { q } from '../api/contract';\nimport { zod } from 'zod';",
        'src/console/e.tsx': "import { useState } from 'react';\nimport { w } from '../custom';\nimport { v } from './views/ListView';",
      },
      fake,
    );
    expect(wrongArrows(project, fake).sort()).toEqual(
      [
        "screens/a.ts:1 imports '../src/console/views/ListView' (src/console: screens may import only screens, src/definitions, src/api, src/domain)",
        "src/server/b.ts:1 imports '@/custom/Login' (src/custom: src/server may import only src/server, screens, src/definitions, src/api, src/domain)",
        "src/definitions/c.ts:1 imports '../../screens/index' (screens: src/definitions may import only src/definitions, src/api, src/domain)",
        "src/definitions/c.ts:2 imports 'react' (React: src/definitions is headless)",
        "src/domain/d.ts:1 imports 'react' (React: src/domain is headless)",
        "src/console/e.tsx:2 imports '../custom' (src/custom: src/console may import only src/console, screens, src/definitions, src/api, src/domain)",
      ].sort(),
    );
  });
});
