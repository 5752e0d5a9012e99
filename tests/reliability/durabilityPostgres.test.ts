/** Durability on PostgreSQL (TEST_DATABASE_URL, else 127.0.0.1:5432/test; a fresh schema), when it answers: see ./durability.ts. */
import { durabilitySuites } from './durability';

await durabilitySuites('PostgreSQL');
