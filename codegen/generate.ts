/**
 * `npm run codegen`: writes generated/ (screen specs, permission matrix, OpenAPI document, README).
 * `npm run codegen -- --check`: writes nothing; exits 1 when a generated file is stale, missing or extra.
 * `npm run codegen -- --out <dir>`: writes every file under <dir> instead (e.g. `npm run review`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { generateAll, GENERATED_DIR } from './build';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function main(): Promise<number> {
  const root = resolve('.');
  const check = process.argv.includes('--check');
  // writing, the document's date bounds follow today; checking, the committed document's year
  const expected = await generateAll({ root, ...(check ? {} : { openApiNow: new Date() }) });
  const out = process.argv.indexOf('--out');
  if (out >= 0 && process.argv[out + 1]) {
    for (const [path, content] of expected) {
      const full = resolve(process.argv[out + 1]!, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
    return 0;
  }
  const existing = new Set(filesUnder(resolve(root, GENERATED_DIR)).map((f) => relative(root, f).split('\\').join('/')));

  const changed: string[] = [];
  for (const [path, content] of expected) {
    const full = resolve(root, path);
    const current = existsSync(full) ? readFileSync(full, 'utf8') : undefined;
    if (current === content) continue;
    changed.push(`${current === undefined ? 'missing' : 'stale'}: ${path}`);
    if (!check) {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
  }
  for (const path of [...existing].sort()) {
    if (expected.has(path)) continue;
    changed.push(`extra: ${path}`);
    if (!check) rmSync(resolve(root, path));
  }

  if (check) {
    if (changed.length) {
      process.stderr.write(`generated/ is out of date; run npm run codegen:\n  ${changed.join('\n  ')}\n`);
      return 1;
    }
    process.stdout.write(`generated/ is up to date (${expected.size} files)\n`);
    return 0;
  }
  process.stdout.write(changed.length ? `codegen: ${changed.length} file(s) updated:\n  ${changed.join('\n  ')}\n` : `codegen: ${expected.size} files, all up to date\n`);
  return 0;
}

process.exitCode = await main();
