/**
 * Frozen migrations: every shipped migration's SQL is the file main ran (its sha256 below,
 * taken from main's code before the SQL moved into files), and the runner refuses a database whose
 * history differs from the code: an applied migration with another checksum, an applied id the code
 * does not know below its highest (one above it, a newer release's, is accepted with a warning), a new
 * id below the highest applied one. A database migrated by main's runner (no
 * checksum column) migrates forward and gets its checksums recorded. PGlite, or PostgreSQL in fresh
 * schemas when TEST_DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate, migrationChecksum, MigrationRefusal } from '../../src/server/db/migrate';
import { migrations, type Migration } from '../../src/server/db/migrations';

/** The sha256 of each migration's SQL as main's code assembled it (ids 1..120; 130 on). Never edit a line: add new ids below. */
const shipped: readonly (readonly [number, string])[] = [
  [1, '5ace89bb4d020ca464cff060064c44adcb24998845a9c3bb3de627a508a7aba7'],
  [2, 'f4ae0a36779732ad9e1a57c9640357252f0238bd7390a7b91bafc4af7f39bb67'],
  [10, '3e8756558124f121134eb6d6caf00dece5a9306ee5847dc84b9725dbbf222890'],
  [11, '8065a11f3cb9d6e007cb0ea361eaf42d05e04b4e502752e8b1cf457ddd9aa61b'],
  [20, '593be816729f9b0e966c4e0b03290bb617eb1fa1f48f6bff24799072a8feef5b'],
  [21, '00baf6223bd31fbbae9e71d7c16abfec3766aa18da16a657de1e14226f3d3257'],
  [30, 'b2e3bcf8db48df94c1cf561da01cee3833a0c2b6f2226d26b1430adf27bef744'],
  [40, '65679dfa0caa4f81bc96c94063142b91f4529c940db7c1e6984ee7cf107e7d01'],
  [41, '9abda49432847a9e96de3f8f0ad12c0888da80adfd5b92a79ea8e819a5ea1bd1'],
  [50, '46ff2642a7239f40f3a3d0230225d846ae8a9bf864ab6077d8c482bf07b0428b'],
  [51, '65718bc48536dd0ab2ddbad0fcd210e475ca95755f8bf50888774f181e3ff5a9'],
  [52, '5259f4a584e81363455caf25d7126b98e1a6722096330feef82294f41da8aa23'],
  [60, '2d93cf850f991d2f2bdbcc3df3d93ee627a1dd242c0da65580e116991b74f8a4'],
  [61, '8056c7d6587a17cb299589e1a483ac9a84606df1725ca1bfbbcec7ea22ef874f'],
  [62, 'be8fcb07923a73a988b8aed3db2aea9a644af7eb553838135d60222645a7d38a'],
  [63, '0dcf71e0e6c69f7be19de81f5d6e58747bd8c031df18d5ec47bc2479029f1f5b'],
  [64, 'bbf25162a9fc253f08a532af5ec9b378cb3efae0babb60b5fe5740b0cc0f4084'],
  [70, 'efff8ff1f7ce6841989c6d1844b975c58600d63b059f711edbf1fb7e1aca88e9'],
  [71, 'a6c0aed2cce9772860de35a93ae3a35cc55363d70d4dd7034889d7a0915a114c'],
  [75, '29a25f46d5adc626a2547e21661bd4fecaef2324815a8c23d5046fa817776c3d'],
  [76, 'adba7f54dc70ed6e884c2b2b906fee6057958cfc238b85b341b86663dcc7b5f8'],
  [77, '756c08029e8d67026a6598f36799fce86cd35740d429953d769cb4810d1076c3'],
  [80, '491bdbd982ea440597e064bce55aa422556bdb7a0e2e9f246ea245606586fd99'],
  [85, '2f618527fd86ee07973d6f4151fdb792209912dad04aa1f64fe59e86975ee610'],
  [86, 'b824d309c53e18d0c83213bb001957124228848f46db1d78e93c6753a5592c1d'],
  [90, 'a81786999e01f375606b99711db9640eddb113993b42b0c8e86b6b565b62d0b3'],
  [91, 'e5ae43795747a937c417da582d92c73bc6517133df39611875ce868d160f4edc'],
  [95, '2435d25bd83dae5d348dfbaa88d3f6b4d6766099bb99d5446ad33b464747f42c'],
  [96, '1fc98b103a26e9d8870e0174466f0785edb9423de380ed1bbdf044b5e467be1f'],
  [97, '86fda79933d81bd1bad0378db5516f9105bee9b570f8ad7e2664721bd1d77cb6'],
  [100, '43b4dadabd8d6f6d3e0cfbb6a2bec54e62aef86a09c6472bb7a361f143a9aac4'],
  [120, '8cf283acb5f96d8afa2dab317c6cc8868a9169418ea01e53c3f9ddb688f25e13'],
  [130, '00f20cb085d46bb3872859b139f80146ce1609d4a114fc39223dfc4cff7d9277'],
  [140, '0a41ff54847b72e8d6cf8bf2c9fac1dfe36615075c7928155b1ff4b539faa398'],
  [150, '6105027cf569854e70a15b8ad6f7f41e3b81c4ff7da948be08dc8e6f47c51c6b'],
  [160, '49c50dfa10ee9cb7975dfbd2e5dbcba81ed2e2e4498cbf2a5e968d4d33a99585'],
  [170, 'e1c568543e011f031c62a0616a351fca7bd8d5920c236839e190a1aa8f8abc8d'],
  [180, '64c805e25923a4ea063bd91fb2f1702351f90db84fa9af2ca2ddf6f1a24a62eb'],
  [190, '54d54e7130b806196e387d94c59bb42cb7a611774dbb7f5f0c7ffb875347ff6b'],
  [200, '0fec6ad191cc1986b36af6d90c5bc863d8e6b91365aeec74538d60b67732d880'],
  [210, '279dfec06b816148d526f58dd242eaf8b932a5d92237f8c2c91fae49e3909e4e'],
  [220, '7d91644e410ad7267cf512fbe739e9f174ab276d2e7fad022555d809229862c9'],
  [230, '0d01b9173c3ca7b0344c935e961250ab49ebf49f284c45edd672bbbee128b416'],
];

const opened: { db: Db; schema?: string }[] = [];
async function freshDb(): Promise<Db> {
  const schema = process.env.TEST_DATABASE_URL ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const db = await openDb(process.env.TEST_DATABASE_URL ? { databaseUrl: process.env.TEST_DATABASE_URL, schema } : {});
  opened.push({ db, schema });
  return db;
}
afterAll(async () => {
  for (const { db, schema } of opened) {
    if (schema) await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.close();
  }
});

/** the runner as it was before checksums: no checksum column, every migration not yet applied, in id order. */
async function migrateAsMain(db: Db, list: readonly Migration[]): Promise<void> {
  await db.tx(async (tx) => {
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ id: number }>('SELECT id FROM schema_migrations')).map((r) => r.id));
    for (const m of [...list].sort((a, b) => a.id - b.id)) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
    }
  });
}

const highest = Math.max(...migrations.map((m) => m.id));
const next: Migration = { id: highest + 1, name: 'test: the next migration', sql: 'CREATE TABLE migration_probe (id integer PRIMARY KEY);' };

async function columns(db: Db): Promise<string[]> {
  const rows = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'schema_migrations' ORDER BY ordinal_position`,
  );
  return rows.map((r) => r.column_name);
}

async function history(db: Db) {
  return db.query<{ id: number; checksum: string | null }>('SELECT id, checksum FROM schema_migrations ORDER BY id');
}

async function refusal(run: Promise<unknown>): Promise<MigrationRefusal> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MigrationRefusal);
  return err as MigrationRefusal;
}

describe('the migration files', () => {
  it('are byte for byte what main ran: every shipped id keeps its sha256', () => {
    const code = new Map(migrations.map((m) => [m.id, migrationChecksum(m.sql)]));
    for (const [id, sha] of shipped) expect({ id, sha: code.get(id) }).toEqual({ id, sha });
  });

  it('form one increasing id sequence, one registered file per migration and no stray file', () => {
    const ids = migrations.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const files = readdirSync(new URL('../../src/server/db/migrations/sql/', import.meta.url)).sort();
    expect(files.map((f) => Number(f.slice(0, 4)))).toEqual(ids);
    expect(files.every((f) => /^\d{4}-[a-z0-9-]+\.sql$/.test(f))).toBe(true);
  });
});

describe('the runner', () => {
  it('migrates a fresh database in id order and records each checksum', async () => {
    const db = await freshDb();
    expect(await migrate(db)).toEqual(migrations.map((m) => m.id));
    expect(await history(db)).toEqual(migrations.map((m) => ({ id: m.id, checksum: migrationChecksum(m.sql) })));
    expect(await migrate(db)).toEqual([]);
  });

  it("migrates forward a database migrated by main's code, recording the checksums of what it ran", async () => {
    const db = await freshDb();
    await migrateAsMain(db, migrations);
    expect(await columns(db)).toEqual(['id', 'name', 'applied_at']);
    expect(await migrate(db, [...migrations, next])).toEqual([next.id]);
    expect(await columns(db)).toEqual(['id', 'name', 'applied_at', 'checksum']);
    expect(await history(db)).toEqual([...migrations, next].map((m) => ({ id: m.id, checksum: migrationChecksum(m.sql) })));
    expect(await db.query('SELECT count(*)::int AS n FROM migration_probe')).toEqual([{ n: 0 }]);
    expect(await migrate(db, [...migrations, next])).toEqual([]);

    // refused: an applied migration whose SQL changed since (the checksum recorded above)
    const edited = migrations.map((m) => (m.id === 60 ? { ...m, sql: `${m.sql}\n-- edited` } : m));
    const changed = await refusal(migrate(db, [...edited, next]));
    expect(changed.message).toMatch(/^Migration 60 \(performance: .*\) differs from the one applied/);

    // refused: a checksum in the database that is not the code's
    await db.query("UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE id = 21");
    expect((await refusal(migrate(db, [...migrations, next]))).message).toMatch(/^Migration 21 \(.*\) differs from the one applied to this database: checksum 0{64} recorded/);
    await db.query('UPDATE schema_migrations SET checksum = $1 WHERE id = 21', [migrationChecksum(migrations.find((m) => m.id === 21)?.sql ?? '')]);

    // accepted with a warning: the database has applied a migration newer than this code's (a rolling
    // upgrade: a newer release migrated it; tests/api/expandContract.test.ts)
    const warnings: string[] = [];
    expect(await migrate(db, migrations, { warn: (m) => warnings.push(m) })).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^The database has applied migration\\(s\\) ${next.id}, newer than this code's`))]);
    // refused: an applied migration the code does not know below its highest id (a removed migration)
    const withoutSixty = migrations.filter((m) => m.id !== 60);
    expect((await refusal(migrate(db, [...withoutSixty, next]))).message).toMatch(/^Migration 60 has been applied to this database but is not in this code's migrations/);

    // refused: a new migration below the highest applied id, and nothing of it ran
    const below: Migration = { id: 119, name: 'test: an id below', sql: 'CREATE TABLE migration_below (id integer);' };
    const lowered = await refusal(migrate(db, [...migrations, below, next]));
    expect(lowered.message).toMatch(new RegExp(`^Migration 119 \\(test: an id below\\) is new to this database, but the database has already applied migration ${next.id}`));
    expect(await db.query("SELECT to_regclass('migration_below')::text AS t")).toEqual([{ t: null }]);

    // and a refusal changes nothing: the history is as it was
    expect(await history(db)).toEqual([...migrations, next].map((m) => ({ id: m.id, checksum: migrationChecksum(m.sql) })));
  });

  it('records checksums only when every applied migration is known and the same: a refusal rolls the recording back', async () => {
    const db = await freshDb();
    await migrateAsMain(db, migrations);
    expect(
      (
        await refusal(
          migrate(
            db,
            migrations.filter((m) => m.id !== 60),
          ),
        )
      ).message,
    ).toMatch(/^Migration 60 has been applied/);
    // the checksum column and the recorded checksums rolled back with the refusal
    expect(await columns(db)).toEqual(['id', 'name', 'applied_at']);
  });
});
