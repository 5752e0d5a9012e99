import type { Migration } from '../migrations';

/**
 * The usernames the demo seeder created before it marked its accounts (as they were then: the list
 * is frozen here, whatever src/server/seed/demo.ts holds later). Together with the e-mail address
 * the seeder gave each of them, they recognise the demo accounts of a database seeded earlier.
 */
const EARLY_DEMO_USERNAMES = [
  'admin', 'maker', 'checker', 'auditor', 'nimal_perera', 'kumari_fernando', 'sunil_jayasinghe', 'dilani_w', 'ruwan_bandara',
  'chamari_silva', 'arjun_t', 'nadeesha_g', 'kasun_herath', 'ishara_d', 'lahiru_w', 'sanduni_k', 'mahesh_s', 'priyanka_e',
  'fathima_rizna', 'tharindu_r',
];

/** Transport, deployment and input limits (ids 80..84): issue 15. */
export const transportMigrations: readonly Migration[] = [
  {
    id: 80,
    name: 'transport: console accounts made by the demo seeder are marked (a production server refuses to start while one is active)',
    sql: `
ALTER TABLE console_users ADD COLUMN demo_account integer NOT NULL DEFAULT 0 CHECK (demo_account IN (0, 1));
UPDATE console_users SET demo_account = 1
 WHERE username IN (${EARLY_DEMO_USERNAMES.map((u) => `'${u}'`).join(', ')})
   AND email = replace(username, '_', '.') || '@remit.lk';
`,
  },
];
