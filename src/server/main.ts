/**
 * Starts the server: HOST (default 127.0.0.1), PORT (default 8080), DATA_DIR, DATABASE_URL,
 * SESSION_SECRET, TRUST_PROXY, BUSINESS_TIME_ZONE, SETTLEMENT_SCHEDULE, MONEY_ACTION_APPROVAL_ABOVE_USD, NODE_ENV,
 * DATABASE_REPLICA_URL, REPLICA_MAX_LAG_MS, REPLICA_CHECK_MS, DATABASE_DIRECT_URL, LOG_LEVEL, SCRYPT_N (tests only),
 * METRICS_PORT, METRICS_HOST, METRICS_TOKEN, SHUTDOWN_DRAIN_MS, OTEL_EXPORTER_OTLP_ENDPOINT. Migrates the database; outside production, seeds the demo
 * data into a database with no users; serves the built console from dist/ when it is there. In
 * production it refuses to start without SESSION_SECRET or with the demo accounts in the database.
 *
 * Stopping: SIGTERM drains first (SHUTDOWN_DRAIN_MS: /health/ready and /health answer 503 while the
 * server goes on answering, so the load balancer takes it out), then closes: it stops listening,
 * finishes the requests in progress and exits. SIGINT (Ctrl-C), or a second SIGTERM, closes at once.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildApp } from './app';
import { createLifecycle } from './http/health';
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
  const lifecycle = createLifecycle();
  const app = await buildApp({
    db,
    secret,
    staticDir,
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
    metrics: environment.metrics,
    lifecycle,
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        await app.close();
        await replicaDb?.close();
        await db.close();
        process.exit(0);
      } catch (err) {
        console.error('The server did not close cleanly:', err);
        process.exit(1);
      }
    })());
  process.on('SIGINT', () => void close());
  process.on('SIGTERM', () => {
    if (lifecycle.draining || environment.shutdownDrainMs === 0) return void close();
    lifecycle.startDraining();
    app.log.info(`SIGTERM: draining for ${environment.shutdownDrainMs} ms (/health/ready answers 503), then closing`);
    setTimeout(() => void close(), environment.shutdownDrainMs);
  });

  await app.listen({ port: environment.port, host: environment.host });
  const address = app.server.address();
  const port = address && typeof address !== 'string' ? address.port : environment.port;
  const shown = environment.host.includes(':') ? `[${environment.host}]` : environment.host;
  const where = environment.databaseUrl ? `PostgreSQL (DATABASE_URL${replicaDb ? ', reads from DATABASE_REPLICA_URL' : ''})` : `embedded database in ${environment.dataDir}`;
  console.log(`Console and API at http://${shown}:${port}/ (${where}${staticDir ? '' : '; dist/ not built, API only'})`);
  const metricsAddress = app.remitMetrics?.listenerAddress();
  if (metricsAddress) console.log(`Metrics at http://${metricsAddress.family === 'IPv6' ? `[${metricsAddress.address}]` : metricsAddress.address}:${metricsAddress.port}/metrics`);
}

main().catch((err) => {
  console.error(err instanceof StartupRefusal ? err.message : err);
  process.exit(1);
});
