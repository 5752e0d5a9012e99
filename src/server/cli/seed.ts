/** `npm run seed`: migrates the database and seeds the demo data when it has no console users. */
import { openMigratedDb, readEnvironment } from '../environment';
import { seedDemo } from '../seed/demo';

async function main(): Promise<void> {
  const db = await openMigratedDb(readEnvironment());
  try {
    const seeded = await seedDemo(db);
    console.log(seeded ? 'Seeded the demo data (password Demo@Pass1).' : 'The database already has console users; nothing seeded.');
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
