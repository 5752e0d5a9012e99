/** Durability on the embedded database (PGlite in DATA_DIR): see ./durability.ts. */
import { durabilitySuites } from './durability';

await durabilitySuites('PGlite');
