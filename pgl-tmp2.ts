import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { openDb } from './src/server/db/db';
import { migrate } from './src/server/db/migrate';
import { buildApp } from './src/server/app';
const t00 = performance.now();
const buf = readFileSync('/tmp/pgl-seeded.tar');
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const db = await openDb({ loadDataDir: new Blob([buf]) });
  await migrate(db);
  const t1 = performance.now();
  const app = await buildApp({ db, secret: randomBytes(32), scryptN: 1024, businessTimeZone: 'UTC', moneyActionApprovalAboveUsd: null });
  const t2 = performance.now();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const t3 = performance.now();
  const r = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'Demo@Pass1' } });
  const t4 = performance.now();
  console.log(`db ${(t1 - t0).toFixed(0)} buildApp ${(t2 - t1).toFixed(0)} listen ${(t3 - t2).toFixed(0)} login ${(t4 - t3).toFixed(0)} ms (${r.statusCode})`);
  await app.close(); await db.close();
}
console.log('since start', (performance.now() - t00).toFixed(0));
