/**
 * Expand, then contract (docs/upgrades.md): during a rolling upgrade the new release migrates the
 * database while servers of the previous one still run on it, so a release's migrations only expand
 * the schema, and what they remove or rename goes in a later release, once no running version reads it.
 *
 * (a) Statically, over the frozen migration files above the baseline (230: the files up to it were
 *     shipped before the rule and are grandfathered): no DROP COLUMN, DROP TABLE, RENAME, ALTER COLUMN
 *     TYPE, SET NOT NULL or a NOT NULL column added without a default, unless the file says why in a
 *     `-- contract:` comment. The check itself is shown to catch such SQL.
 * (b) Dynamically, "the previous release against the new schema": a database migrated to this code's
 *     migrations, then by the next release's expand-only migration (a nullable column on two hot tables,
 *     a new table; recorded in schema_migrations as its runner records it). The current server (the
 *     "old" version, src/server/main.ts as `npm run server` starts it) starts on it with a warning,
 *     signs in, lists transactions, makes and approves a change request. A database whose applied
 *     migration has another checksum than the code's is still refused.
 * On PGlite (DATA_DIR), and on PostgreSQL in a fresh schema when TEST_DATABASE_URL is set.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { migrations, type Migration } from '../../src/server/db/migrations';
import { openMigratedDb, readEnvironment, StartupRefusal } from '../../src/server/environment';
import { freePort } from '../../src/server/freePort';
import { seedDemo } from '../../src/server/seed/demo';

/** The highest migration id when the rule came in: files up to it are grandfathered. */
const BASELINE = 230;
const SQL_DIR = new URL('../../src/server/db/migrations/sql/', import.meta.url);

/** What in a migration's SQL would break a server of the previous release still running on the database; empty when it only expands or says why (`-- contract:`). */
function contractViolations(sql: string): string[] {
  if (/^\s*--\s*contract:\s*\S/im.test(sql)) return [];
  const code = sql.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const found: string[] = [];
  for (const statement of code.split(';').map((s) => s.replace(/\s+/g, ' ').trim())) {
    if (statement === '') continue;
    if (/\bDROP\s+COLUMN\b/i.test(statement)) found.push(`DROP COLUMN: ${statement}`);
    if (/\bDROP\s+TABLE\b/i.test(statement)) found.push(`DROP TABLE: ${statement}`);
    if (/\bRENAME\b/i.test(statement)) found.push(`RENAME: ${statement}`);
    if (/\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i.test(statement)) found.push(`ALTER COLUMN TYPE: ${statement}`);
    const setNotNull = /\bALTER\s+COLUMN\s+("?[\w]+"?)\s+SET\s+NOT\s+NULL\b/i.exec(statement);
    if (setNotNull && !new RegExp(`\\bALTER\\s+COLUMN\\s+${setNotNull[1]}\\s+SET\\s+DEFAULT\\b`, 'i').test(code)) found.push(`SET NOT NULL without a default: ${statement}`);
    for (const added of statement.matchAll(/\bADD\s+COLUMN\s+(IF\s+NOT\s+EXISTS\s+)?([^,]*)/gi)) {
      if (/\bNOT\s+NULL\b/i.test(added[2]) && !/\bDEFAULT\b/i.test(added[2])) found.push(`a NOT NULL column without a default: ${statement}`);
    }
  }
  return found;
}

describe('(a) the migration files after the baseline only expand', () => {
  it('the check catches what would break the previous release, and lets expansions and explained contractions through', () => {
    expect(contractViolations('ALTER TABLE roles DROP COLUMN disabled;')).toEqual(['DROP COLUMN: ALTER TABLE roles DROP COLUMN disabled']);
    expect(contractViolations('DROP TABLE IF EXISTS app_versions;')).toHaveLength(1);
    expect(contractViolations('ALTER TABLE roles RENAME COLUMN role_name TO name;')).toHaveLength(1);
    expect(contractViolations('ALTER TABLE banks RENAME TO bank_list;')).toHaveLength(1);
    expect(contractViolations('ALTER TABLE roles ALTER COLUMN user_level TYPE bigint;')).toHaveLength(1);
    expect(contractViolations('ALTER TABLE roles ALTER COLUMN user_level SET DATA TYPE bigint;')).toHaveLength(1);
    expect(contractViolations('ALTER TABLE roles ALTER COLUMN note SET NOT NULL;')).toHaveLength(1);
    expect(contractViolations('ALTER TABLE roles ADD COLUMN note text NOT NULL;')).toHaveLength(1);
    // expansions
    expect(contractViolations("ALTER TABLE roles ADD COLUMN note text; ALTER TABLE roles ADD COLUMN kind text NOT NULL DEFAULT 'x';")).toEqual([]);
    expect(contractViolations("ALTER TABLE roles ALTER COLUMN kind SET DEFAULT 'x'; ALTER TABLE roles ALTER COLUMN kind SET NOT NULL;")).toEqual([]);
    expect(contractViolations('CREATE TABLE next_things (id serial PRIMARY KEY, note text); CREATE INDEX CONCURRENTLY next_things_note ON next_things (note);')).toEqual([]);
    expect(contractViolations('DROP INDEX IF EXISTS roles_old; DROP TRIGGER IF EXISTS t ON roles; -- DROP COLUMN in a comment')).toEqual([]);
    // a contraction that says why
    expect(contractViolations(nextRelease.sql)).toEqual([]);
    expect(contractViolations('-- contract: roles.legacy_code is read by no release since 2026-12 (expanded by migration 240)\nALTER TABLE roles DROP COLUMN legacy_code;')).toEqual([]);
  });

  it(`every migration file above ${BASELINE} expands only, or carries a -- contract: comment`, () => {
    const files = readdirSync(SQL_DIR).filter((f) => /^\d{4}-.*\.sql$/.test(f));
    expect(files.map((f) => Number(f.slice(0, 4)))).toContain(BASELINE);
    const problems = files.filter((f) => Number(f.slice(0, 4)) > BASELINE).flatMap((f) => contractViolations(readFileSync(new URL(f, SQL_DIR), 'utf8')).map((v) => `${f}: ${v}`));
    expect(problems).toEqual([]);
  });
});

/** The next release's migration: expand only. */
const nextRelease: Migration = {
  id: Math.max(...migrations.map((m) => m.id)) + 1,
  name: 'next release: a note on transactions and change requests, a table of notes',
  sql: `ALTER TABLE ceft_transactions ADD COLUMN next_release_note text;
ALTER TABLE change_requests ADD COLUMN next_release_note text;
CREATE TABLE next_release_notes (id serial PRIMARY KEY, change_request_id integer, note text NOT NULL DEFAULT '');`,
};
interface Backend {
  name: string;
  env: Record<string, string>;
  open(): Promise<Db>;
  cleanup(): Promise<void>;
}

function embedded(): Backend {
  const dataDir = mkdtempSync(join(tmpdir(), 'expand-contract-'));
  return {
    name: 'embedded PGlite',
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    open: () => openMigratedDb(readEnvironment({ DATA_DIR: dataDir })),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function postgres(url: string): Promise<Backend> {
  const schema = `expand_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const dataDir = mkdtempSync(join(tmpdir(), 'expand-contract-pg-'));
  return {
    name: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` },
    open: async () => {
      const db = await openDb({ databaseUrl: url, schema });
      await migrate(db);
      return db;
    },
    async cleanup() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('(b) the previous release on the next release’s schema', () => {
  it('starts with a warning, signs in, lists transactions, makes and approves a change request; another checksum is still refused', async () => {
    const backend = process.env.TEST_DATABASE_URL ? await postgres(process.env.TEST_DATABASE_URL) : embedded();
    cleanups.push(() => backend.cleanup());

    // this code's schema and the demo data (cheap passwords, a few transactions), then the next release's migration, applied by its runner
    const previous = process.env.SEED_TRANSACTIONS;
    process.env.SEED_TRANSACTIONS = '50';
    let db = await backend.open();
    try {
      await seedDemo(db, { scryptN: 1024 });
      const warnings: string[] = [];
      expect(await migrate(db, [...migrations, nextRelease], { warn: (m) => warnings.push(m) })).toEqual([nextRelease.id]);
      expect(warnings).toEqual([]);
    } finally {
      await db.close();
      if (previous === undefined) delete process.env.SEED_TRANSACTIONS;
      else process.env.SEED_TRANSACTIONS = previous;
    }

    // the current server, the "old" version, on it
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, ...backend.env, NODE_ENV: 'test', SCRYPT_N: '1024', SEED_TRANSACTIONS: '0', SESSION_SECRET: '', SETTLEMENT_SCHEDULE: 'off', LOG_LEVEL: 'warn', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const call = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { statusCode: number; data: Record<string, unknown> };
    };
    try {
      for (const deadline = Date.now() + 240_000; ;) {
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
        if (
          await call('auth/login', {}).then(
            () => true,
            () => false,
          )
        )
          break;
        if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(output).toContain(`The database has applied migration(s) ${nextRelease.id}, newer than this code's`);
      const login = async (username: string) => {
        const reply = await call('auth/login', { username, password: 'Demo@Pass1' });
        expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
        return reply.data.token as string;
      };
      const [maker, checker] = [await login('maker'), await login('checker')];
      const today = new Date().toISOString().slice(0, 10);
      const listed = await call('Transaction/get-ceftTransaction', { from_date: '2020-01-01T00:00:00', to_date: `${today}T23:59:59`, country_code: '', data: '', status: '', fetchCount: 100 }, maker);
      expect(listed.statusCode, JSON.stringify(listed.data)).toBe(200);
      expect(JSON.stringify(listed.data)).toContain('"trace"');
      const created = await call('role/create', { role_name: 'Made By The Old Release', user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 }, maker);
      expect(created.statusCode, JSON.stringify(created.data)).toBe(200);
      const approved = await call('role/approve', { changeRequestID: created.data.changeRequestId, actionTaken: 'approve' }, checker);
      expect(approved).toEqual({ statusCode: 200, data: { message: 'Role approved successfully' } });
      const roles = await call('role/list', {}, checker);
      expect((roles.data.roles as { role_name: string }[]).map((r) => r.role_name)).toContain('Made By The Old Release');
    } finally {
      const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      child.kill('SIGTERM');
      await exited;
    }

    // the next release's column and table are there, left alone (null) by the old server's writes
    db = await backend.open();
    try {
      expect(await db.one('SELECT next_release_note FROM change_requests WHERE id = $1', [Number((await db.one<{ id: number }>('SELECT max(id)::int AS id FROM change_requests'))!.id)])).toEqual({
        next_release_note: null,
      });
      expect(await db.one('SELECT count(*)::int AS n FROM next_release_notes')).toEqual({ n: 0 });
      // a database whose applied migration differs from this code's: still refused
      await db.query("UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE id = $1", [BASELINE]);
    } finally {
      await db.close();
    }
    const refused = await backend.open().then(
      async (opened) => {
        await opened.close();
        return undefined;
      },
      (err: unknown) => err as Error,
    );
    expect(refused).toBeInstanceOf(backend.name === 'PostgreSQL' ? Error : StartupRefusal);
    expect(refused?.message).toMatch(new RegExp(`^Migration ${BASELINE} \\(.*\\) differs from the one applied to this database`));
  }, 600_000);
});
