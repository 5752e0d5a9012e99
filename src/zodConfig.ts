/**
 * Imported first by the console's entry (src/main.tsx), before any schema is built: the CSP allows no
 * eval, so zod must not probe for it (the probe would be refused, and reported as a violation).
 */
import { z } from 'zod';

z.config({ jitless: true });
