/**
 * `npm run seed`: migrates the database and seeds the demo data when it has no console users.
 *
 * `npm run seed -- --transactions N`: also replaces every transaction with N generated ones (the same
 * N gives the same data relative to today; bulk loaded, e.g. 1,000,000 into PostgreSQL with
 * DATABASE_URL set).
 */
import { openMigratedDb, readEnvironment } from '../environment';
import { seedDemo } from '../seed/demo';
import { replaceTransactions } from '../seed/transactions';

/** The value of `--transactions N` (or `--transactions=N`), undefined when absent; throws when malformed. */
function transactionsArg(argv: readonly string[]): number | undefined {
  const i = argv.findIndex((a) => a === '--transactions' || a.startsWith('--transactions='));
  if (i < 0) return undefined;
  const raw = argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
  const n = Number(raw?.replace(/_/g, ''));
  if (raw === undefined || !Number.isInteger(n) || n < 0) throw new Error('--transactions needs a whole number, e.g. --transactions 1000000');
  return n;
}

async function main(): Promise<void> {
  const transactions = transactionsArg(process.argv.slice(2));
  // the demo seeder's own transactions would be replaced at once: skip them
  if (transactions !== undefined) process.env.SEED_TRANSACTIONS = '0';
  const db = await openMigratedDb(readEnvironment());
  try {
    const seeded = await seedDemo(db);
    console.log(seeded ? 'Seeded the demo data (password Demo@Pass1).' : 'The database already has console users; nothing seeded.');
    if (transactions !== undefined) {
      const started = Date.now();
      let reported = 0;
      // a line every tenth of the set, at most every 100,000 rows
      const step = Math.min(100_000, Math.ceil(transactions / 10));
      const summary = await replaceTransactions(db, {
        now: new Date(),
        count: transactions,
        onProgress: (loaded, total) => {
          if (loaded - reported >= step || loaded === total) {
            reported = loaded;
            console.log(`  ${loaded.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} transactions (${((Date.now() - started) / 1000).toFixed(1)} s)`);
          }
        },
      });
      const parts = Object.entries(summary.byKind).map(([k, n]) => `${k} ${n.toLocaleString('en-US')}`);
      console.log(`Loaded ${transactions.toLocaleString('en-US')} transactions (${parts.join(', ')}; ${summary.today} today) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
