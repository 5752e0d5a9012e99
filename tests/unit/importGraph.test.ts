/**
 * The dependency arrows run one way. The headless layers (src/domain, src/api, src/formats,
 * src/definitions, screens/) and the server import nothing from the console runtime (src/console) or
 * the custom screens (src/custom), and nothing from React; each layer imports only the layers below it.
 * src/domain, the bottom, imports no other layer; the file formats (src/formats) sit on src/api and
 * src/domain and serve the console and the server. The console runtime imports nothing from src/custom
 * (src/main.tsx passes the custom parts in), and no two top-level layers import each other, however
 * indirectly. Walks every import (static, `export ... from`, type-only and dynamic `import()`) of every
 * file of those layers with ts-morph and names each offending arrow: the importing file and the path it
 * imports.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Node, Project, SyntaxKind, type SourceFile } from 'ts-morph';

type Layer = 'src/domain' | 'src/api' | 'src/formats' | 'src/definitions' | 'screens' | 'src/server' | 'src/console' | 'src/custom';

/** The layers each guarded layer may import (its own included). Anything else, React included, is an error. */
const allowed: Partial<Record<Layer, readonly Layer[]>> = {
  'src/domain': ['src/domain'],
  'src/api': ['src/api', 'src/domain'],
  // the file formats (xlsx, PDF, CSV): the cells of an export field (src/api) in the business time zone
  'src/formats': ['src/formats', 'src/api', 'src/domain'],
  'src/definitions': ['src/definitions', 'src/api', 'src/domain'],
  screens: ['screens', 'src/definitions', 'src/api', 'src/domain'],
  'src/server': ['src/server', 'screens', 'src/definitions', 'src/formats', 'src/api', 'src/domain'],
  // the runtime gets the hand-written screens and modals from the entry (src/main.tsx), never by import
  'src/console': ['src/console', 'screens', 'src/definitions', 'src/formats', 'src/api', 'src/domain'],
};
/** The layers that may use React. */
const withReact: readonly Layer[] = ['src/console', 'src/custom'];
const layers = ['src/domain', 'src/api', 'src/formats', 'src/definitions', 'screens', 'src/server', 'src/console', 'src/custom'] as const satisfies readonly Layer[];
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

/** One import of a file of layer `from` into layer `to`, as `file:line imports 'spec'`, per arrow between two layers. */
function layerArrows(project: Project, root: string): Map<Layer, Map<Layer, string>> {
  const arrows = new Map<Layer, Map<Layer, string>>();
  for (const sf of project.getSourceFiles()) {
    const file = path.relative(root, sf.getFilePath()).split(path.sep).join('/');
    const from = layerOf(file);
    if (!from) continue;
    for (const { spec, line } of specifiersOf(sf)) {
      const target = resolveSpecifier(file, spec);
      const to = target === undefined ? undefined : layerOf(target);
      if (!to || to === from) continue;
      const out = arrows.get(from) ?? new Map<Layer, string>();
      arrows.set(from, out);
      if (!out.has(to)) out.set(to, `${file}:${line} imports '${spec}'`);
    }
  }
  return arrows;
}

/**
 * Every cycle between layers, once each (starting from its first layer in `layers` order), as
 * `a -> b -> a (one import per arrow)`.
 */
function layerCycles(arrows: Map<Layer, Map<Layer, string>>): string[] {
  const cycles: string[] = [];
  const rank = (l: Layer) => layers.indexOf(l);
  const walk = (start: Layer, at: Layer, trail: Layer[]) => {
    for (const [next] of arrows.get(at) ?? []) {
      if (next === start) {
        const loop = [...trail, start];
        const examples = loop.slice(1).map((to, i) => arrows.get(loop[i])?.get(to));
        cycles.push(`${loop.join(' -> ')} (${examples.join('; ')})`);
      } else if (rank(next) > rank(start) && !trail.includes(next)) walk(start, next, [...trail, next]);
    }
  };
  for (const start of layers) walk(start, start, [start]);
  return cycles;
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

  it('has no cycle between the top-level layers, the custom screens included', () => {
    const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false } });
    for (const layer of layers) project.addSourceFilesAtPaths([`${layer}/**/*.ts`, `${layer}/**/*.tsx`]);
    const arrows = layerArrows(project, root);
    // the walk saw the arrows that run down (else the check would pass vacuously)
    expect(arrows.get('src/api')?.get('src/domain'), 'src/api -> src/domain').toMatch(/^src\/api\/.+ imports '.+'$/);
    expect(arrows.get('src/formats')?.get('src/api'), 'src/formats -> src/api').toMatch(/^src\/formats\/.+ imports '.+'$/);
    expect(arrows.get('src/server')?.get('src/formats'), 'src/server -> src/formats').toMatch(/^src\/server\/.+ imports '.+'$/);
    expect(layerCycles(arrows)).toEqual([]);
  });

  it('allows no cycle in its own table: each layer may import only layers below it', () => {
    const asArrows = new Map(Object.entries(allowed).map(([from, tos]) => [from as Layer, new Map(tos.filter((to) => to !== from).map((to) => [to, 'allowed']))]));
    expect(layerCycles(asArrows)).toEqual([]);
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
        'src/domain/f.ts':
          "import type { E } from '../formats/cells';\nimport { s } from '../../screens/index';\nexport { c } from '@/custom';\nconst l = () => import('../server/app');\nimport { b } from './businessTime';",
        'src/formats/g.ts':
          "import { r } from '../console/request';\nimport type { D } from '@/server/db/db';\nconst t = () => import('../../screens/transactions');\nimport { useMemo } from 'react';\nimport type { X } from '../api/contract';\nimport { b } from '../domain/businessTime';",
      },
      fake,
    );
    expect(wrongArrows(project, fake).sort()).toEqual(
      [
        "screens/a.ts:1 imports '../src/console/views/ListView' (src/console: screens may import only screens, src/definitions, src/api, src/domain)",
        "src/server/b.ts:1 imports '@/custom/Login' (src/custom: src/server may import only src/server, screens, src/definitions, src/formats, src/api, src/domain)",
        "src/definitions/c.ts:1 imports '../../screens/index' (screens: src/definitions may import only src/definitions, src/api, src/domain)",
        "src/definitions/c.ts:2 imports 'react' (React: src/definitions is headless)",
        "src/domain/d.ts:1 imports 'react' (React: src/domain is headless)",
        "src/domain/d.ts:2 imports '../api/contract' (src/api: src/domain may import only src/domain)",
        "src/console/e.tsx:2 imports '../custom' (src/custom: src/console may import only src/console, screens, src/definitions, src/formats, src/api, src/domain)",
        "src/domain/f.ts:1 imports '../formats/cells' (src/formats: src/domain may import only src/domain)",
        "src/domain/f.ts:2 imports '../../screens/index' (screens: src/domain may import only src/domain)",
        "src/domain/f.ts:3 imports '@/custom' (src/custom: src/domain may import only src/domain)",
        "src/domain/f.ts:4 imports '../server/app' (src/server: src/domain may import only src/domain)",
        "src/formats/g.ts:1 imports '../console/request' (src/console: src/formats may import only src/formats, src/api, src/domain)",
        "src/formats/g.ts:2 imports '@/server/db/db' (src/server: src/formats may import only src/formats, src/api, src/domain)",
        "src/formats/g.ts:3 imports '../../screens/transactions' (screens: src/formats may import only src/formats, src/api, src/domain)",
        "src/formats/g.ts:4 imports 'react' (React: src/formats is headless)",
      ].sort(),
    );
  });
  it('names each cycle between layers with the importing file and the imported path of every arrow in it', () => {
    const fake = '/repo';
    const project = projectOf(
      {
        'src/api/contract.ts': "import { d } from '../domain/dates';\nimport { p } from '../domain/permissions';",
        'src/domain/xlsx.ts': "import type { ExportField } from '../api/contract';",
        'src/formats/cells.ts': "import type { ExportField } from '@/api/contract';",
        'src/console/exports/job.ts': "const pdf = () => import('../../formats/pdf');",
        'src/formats/pdf.ts': "export { t } from '../console/theme';",
        'src/server/a.ts': "import { f } from '../formats/cells';",
      },
      fake,
    );
    expect(layerCycles(layerArrows(project, fake)).sort()).toEqual(
      [
        "src/domain -> src/api -> src/domain (src/domain/xlsx.ts:1 imports '../api/contract'; src/api/contract.ts:1 imports '../domain/dates')",
        "src/formats -> src/console -> src/formats (src/formats/pdf.ts:1 imports '../console/theme'; src/console/exports/job.ts:1 imports '../../formats/pdf')",
      ].sort(),
    );
  });
});
