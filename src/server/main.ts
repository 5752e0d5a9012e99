import { runStartupChecks } from './startupChecks';
/**
 * Starts the server: PORT (default 8080), DATA_DIR, DATABASE_URL, SESSION_SECRET, TRUST_PROXY, NODE_ENV.
 * Migrates the database; outside production, seeds the demo data into a database with no users;
 * serves the built console from dist/ when it is there.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildApp } from './app';
import { loadTokenSecret, openMigratedDb, readEnvironment } from './environment';
import { seedDemo } from './seed/demo';

async function main(): Promise<void> {
  runStartupChecks();
  const environment = readEnvironment();
  const port = Number(process.env.PORT || 8080);
  const production = process.env.NODE_ENV === 'production';

  const db = await openMigratedDb(environment);
  const secret = await loadTokenSecret(environment, db);
  if (!production && (await seedDemo(db))) {
    console.log('Seeded the demo data: sign in as admin, maker, checker or auditor with password Demo@Pass1');
  }

  const distDir = resolve('dist');
  const staticDir = existsSync(resolve(distDir, 'index.html')) ? distDir : undefined;
  const app = await buildApp({ db, secret, staticDir, logger: true, trustProxy: environment.trustProxy });

  const shutdown = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ port, host: '0.0.0.0' });
  const where = environment.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${environment.dataDir}`;
  console.log(`Console and API at http://localhost:${port}/ (${where}${staticDir ? '' : '; dist/ not built, API only'})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
