/**
 * Starts the server: HOST (default 127.0.0.1), PORT (default 8080), DATA_DIR, DATABASE_URL,
 * SESSION_SECRET, TRUST_PROXY, BUSINESS_TIME_ZONE, SETTLEMENT_SCHEDULE, MONEY_ACTION_APPROVAL_ABOVE_USD, NODE_ENV,
 * DATABASE_REPLICA_URL, REPLICA_MAX_LAG_MS, REPLICA_CHECK_MS, DATABASE_DIRECT_URL, LOG_LEVEL, CORS_ORIGINS, SCRYPT_N (tests only). Migrates the database; outside production, seeds the demo
 * data into a database with no users; serves the built console from dist/ when it is there. In
 * production it refuses to start without SESSION_SECRET or with the demo accounts in the database.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildApp } from './app';
import { loadTokenSecret, openMigratedDb, readEnvironment, StartupRefusal } from './environment';
import { seedDemo } from './seed/demo';
import { openDb, type Db } from './db/db';
import { checkNoDemoAccounts, checkProductionEnvironment, runStartupChecks } from './startupChecks';

async function main(): Promise<void> {
  // files the server makes (the embedded database's, the session secret) are the owner's only
  process.umask(0o077);
  runStartupChecks();
  checkProductionEnvironment(process.env);
  const environment = readEnvironment();
  const production = process.env.NODE_ENV === 'production';

  const db = await openMigratedDb(environment);
  try {
    await checkNoDemoAccounts(db, process.env);
  } catch (err) {
    await db.close();
    throw err;
  }
  const secret = await loadTokenSecret(environment, db);
  if (!production && (await seedDemo(db, { scryptN: environment.scryptN }))) {
    console.log('Seeded the demo data: sign in as admin, maker, checker or auditor with password Demo@Pass1');
  }

  if (environment.replicaUrl && !environment.databaseUrl) throw new StartupRefusal('DATABASE_REPLICA_URL needs DATABASE_URL: the embedded database has no replica');
  // the replica is opened, never migrated (it is read-only and follows the primary); unreachable now is fine: reads use the primary until it answers
  const replicaDb: Db | undefined = environment.replicaUrl ? await openDb({ databaseUrl: environment.replicaUrl }) : undefined;

  const distDir = resolve('dist');
  const staticDir = existsSync(resolve(distDir, 'index.html')) ? distDir : undefined;
  const app = await buildApp({
    db,
    secret,
    staticDir,
    corsOrigins: environment.corsOrigins,
    logger: { level: environment.logLevel },
    scryptN: environment.scryptN,
    trustProxy: environment.trustProxy,
    businessTimeZone: environment.businessTimeZone,
    changeRequestExpiryDays: environment.changeRequestExpiryDays,
    pendingRequestsPerMaker: environment.pendingRequestsPerMaker,
    settlementSchedule: environment.settlementSchedule,
    moneyActionApprovalAboveUsd: environment.moneyApprovalAboveUsd,
    exportWorker: true,
    replicaDb,
    readRouting: environment.replica,
  });

  const shutdown = async () => {
    await app.close();
    await replicaDb?.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ port: environment.port, host: environment.host });
  const address = app.server.address();
  const port = address && typeof address !== 'string' ? address.port : environment.port;
  const shown = environment.host.includes(':') ? `[${environment.host}]` : environment.host;
  const where = environment.databaseUrl ? `PostgreSQL (DATABASE_URL${replicaDb ? ', reads from DATABASE_REPLICA_URL' : ''})` : `embedded database in ${environment.dataDir}`;
  console.log(`Console and API at http://${shown}:${port}/ (${where}${staticDir ? '' : '; dist/ not built, API only'})`);
}

main().catch((err) => {
  console.error(err instanceof StartupRefusal ? err.message : err);
  process.exit(1);
});
